import pino from 'pino'

/**
 * Logs as a person at a terminal reads them (LOG_FORMAT=pretty): one plain line per event, the
 * address the server runs at, each email's subject and link on lines of their own, warnings and
 * errors with their error and request id. Static files get no line and API calls a line only at
 * debug level. Elsewhere (a pipe, a file, a log collector) the lines stay JSON.
 */

export type LogFormat = 'pretty' | 'json'

export const LOG_FORMATS = ['pretty', 'json'] as const

/** A terminal gets readable lines; anything else gets JSON. */
export function defaultLogFormat(isTTY: boolean | undefined): LogFormat {
  return isTTY ? 'pretty' : 'json'
}

/** One pino line, as JSON. */
interface Entry {
  level: number
  time?: string
  msg?: string
  reqId?: string
  component?: string
  err?: LoggedError
  method?: string
  path?: string
  status?: number
  ms?: number
  to?: string
  subject?: string
  links?: unknown
  [key: string]: unknown
}

interface LoggedError {
  type?: string
  message?: string
  stack?: string
  cause?: LoggedError
}

const LABELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO ',
  40: 'WARN ',
  50: 'ERROR',
  60: 'FATAL',
}
/** ANSI colours of the level labels, on a terminal only. */
const COLOURS: Record<number, string> = {
  10: '90',
  20: '36',
  30: '32',
  40: '33',
  50: '31',
  60: '35',
}
const WARN = 40
const ERROR = 50
const DEBUG = 20
/** Fields every line carries, or that the line itself already says. */
const QUIET_FIELDS = new Set([
  'level',
  'time',
  'pid',
  'hostname',
  'service',
  'msg',
  'reqId',
  'component',
  'role',
  'err',
])
/** Where the continuation lines of an entry start: under its message. */
const INDENT = ' '.repeat('00:00:00 LEVEL '.length)

export interface PrettyOptions {
  /** The configured LOG_LEVEL: API request lines appear at debug and trace only. */
  level: string
  colour?: boolean
}

function clock(time: string | undefined): string {
  const date = time ? new Date(time) : new Date()
  return Number.isNaN(date.getTime()) ? '--:--:--' : date.toTimeString().slice(0, 8)
}

function errorText(err: LoggedError): string {
  const message = err.message ?? ''
  return err.type && err.type !== 'Error' ? `${err.type}: ${message}` : message
}

/** The stack frames of an error and its causes, for errors at a terminal. */
function stackLines(err: LoggedError, depth = 0): string[] {
  const frames = (err.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line))
  const lines = frames.map((frame) => `${INDENT}  ${frame.trim()}`)
  if (err.cause && depth < 4) {
    lines.push(`${INDENT}caused by ${errorText(err.cause)}`, ...stackLines(err.cause, depth + 1))
  }
  return lines
}

/** Short values of a warning's own fields (file ids, attempts, signals), as key=value. */
function details(entry: Entry): string {
  const parts: string[] = []
  for (const [key, value] of Object.entries(entry)) {
    if (QUIET_FIELDS.has(key) || value === undefined || value === null) continue
    if (typeof value === 'object') continue
    const text = String(value)
    parts.push(`${key}=${text.length > 80 ? `${text.slice(0, 79)}…` : text}`)
  }
  return parts.join(' ')
}

/** The readable lines of one entry, or undefined when it gets none. */
export function formatEntry(entry: Entry, options: PrettyOptions): string | undefined {
  const threshold = pino.levels.values[options.level] ?? 30
  const isRequest = entry.msg === 'request' && typeof entry.path === 'string'
  let body: string[]
  if (isRequest) {
    // static files (scripts, styles, fonts) never; API calls when asked for debug
    if (!entry.path?.startsWith('/api/') || threshold > DEBUG) return undefined
    const id = entry.reqId ? `  request ${entry.reqId}` : ''
    body = [`${entry.method} ${entry.path} ${entry.status} ${entry.ms} ms${id}`]
  } else if (entry.component === 'mail' && entry.subject && Array.isArray(entry.links)) {
    body = [`Mail to ${entry.to}`, `Subject: ${entry.subject}`]
    for (const link of entry.links) body.push(`Link: ${String(link)}`)
  } else if (entry.level >= WARN) {
    let line = entry.msg ?? ''
    if (entry.err) line += `: ${errorText(entry.err)}`
    const more = details(entry)
    if (more) line += `  ${more}`
    if (entry.reqId) line += `  request ${entry.reqId}`
    body = [line]
  } else {
    body = [entry.msg ?? '']
  }
  const label = LABELS[entry.level] ?? 'LOG  '
  const coloured = options.colour
    ? `\u001b[${COLOURS[entry.level] ?? '0'}m${label}\u001b[0m`
    : label
  const time = options.colour ? `\u001b[2m${clock(entry.time)}\u001b[0m` : clock(entry.time)
  const [first = '', ...rest] = body
  const lines = [`${time} ${coloured} ${first}`, ...rest.map((line) => `${INDENT}${line}`)]
  if (entry.err && entry.level >= ERROR) lines.push(...stackLines(entry.err))
  return `${lines.join('\n')}\n`
}

/** Turns one pino JSON line into readable lines ('' when it gets none). */
export function formatLine(line: string, options: PrettyOptions): string {
  let entry: Entry
  try {
    entry = JSON.parse(line) as Entry
  } catch {
    return line
  }
  if (typeof entry !== 'object' || entry === null || typeof entry.level !== 'number') return line
  return formatEntry(entry, options) ?? ''
}

export interface Output {
  write(text: string): unknown
  isTTY?: boolean
}

/** A pino destination that writes readable lines to `out` (stdout by default). */
export function prettyDestination(level: string, out: Output = process.stdout) {
  const colour = Boolean(out.isTTY) && !process.env.NO_COLOR
  return {
    write(line: string) {
      const text = formatLine(line, { level, colour })
      if (text) out.write(text)
    },
  }
}

/** Where a process's logs go: readable lines to stdout, or pino's own JSON lines (undefined). */
export function logDestination(format: LogFormat, level: string, out: Output = process.stdout) {
  return format === 'pretty' ? prettyDestination(level, out) : undefined
}
