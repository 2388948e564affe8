import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { STATUS_CODES } from 'node:http'
import { isIP, type Socket } from 'node:net'
import type { Readable } from 'node:stream'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'
import ipaddr from 'ipaddr.js'
import { Agent, buildConnector, type Dispatcher, request } from 'undici'
import { KNOWLEDGE_TEXTS } from '../../contract/knowledge.ts'

/**
 * Fetching a document by URL without reaching the server's own network (SS1-SS4): http and https
 * on ports 80 and 443 only, every redirect re-checked, and the address actually connected to
 * checked at connect time, so DNS rebinding cannot slip a private address in. Only exact
 * host:port pairs of the URL_FETCH_ALLOW setting are exempt.
 */

export type UrlFetchErrorCode =
  | 'blocked'
  | 'invalid_url'
  | 'timeout'
  | 'too_large'
  | 'http_status'
  | 'network'

/** A failed fetch. The message is a plain sentence for the user and never holds remote content. */
export class UrlFetchError extends Error {
  override name = 'UrlFetchError'
  code: UrlFetchErrorCode
  constructor(code: UrlFetchErrorCode, message: string) {
    super(message)
    this.code = code
  }
}

/** A DNS resolver: always asked for every address of a name (`all: true`), like `dns.lookup`. */
export type LookupFunction = (
  hostname: string,
  options: { all: true },
  callback: (
    error: NodeJS.ErrnoException | null,
    addresses: LookupAddress[] | string,
    family?: number,
  ) => void,
) => void

export interface SafeFetchOptions {
  /** 'host:port' pairs from the URL_FETCH_ALLOW setting; exact matches only. */
  allow?: string[]
  /** For the whole fetch, redirects and body included. Default 10 s. */
  timeoutMs?: number
  /** Decompressed body bytes, counted while streaming. Default 20 MB. */
  maxBytes?: number
  /** Default 5. */
  maxRedirects?: number
  /** DNS resolver override, for tests. Default `dns.lookup` with `all: true`. */
  lookup?: LookupFunction
  userAgent?: string
}

export interface FetchedDocument {
  /** After redirects. */
  finalUrl: string
  status: number
  /** Lower-case media type without parameters; '' when absent. */
  contentType: string
  charset: string | null
  /** From Content-Disposition, else the last path segment, else null. */
  filename: string | null
  body: Buffer
}

export const DEFAULT_FETCH_TIMEOUT_MS = 10_000
export const DEFAULT_FETCH_MAX_BYTES = 20 * 1024 * 1024
export const DEFAULT_MAX_REDIRECTS = 5
const DEFAULT_USER_AGENT = 'Quire/1 (+document fetcher)'
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])

const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3')
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96')

/**
 * True for every address that is not public unicast (SS2): loopback, private, link-local, CGNAT,
 * multicast, broadcast, reserved, unspecified, and v6 forms that embed such a v4 address
 * (IPv4-mapped, NAT64, 6to4). Anything that is not an IP address at all is blocked too.
 */
export function isBlockedAddress(address: string): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6
  try {
    parsed = ipaddr.parse(address.trim().replace(/^\[|\]$/g, ''))
  } catch {
    return true
  }
  if (parsed.kind() === 'ipv4') return parsed.range() !== 'unicast'
  const v6 = parsed as ipaddr.IPv6
  const bytes = v6.toByteArray()
  const range = v6.range()
  // forms that carry a v4 address are judged by the v4 address they carry
  if (range === 'ipv4Mapped' || range === 'rfc6145' || v6.match(NAT64_WELL_KNOWN)) {
    return isBlockedAddress(bytes.slice(12).join('.'))
  }
  if (range === '6to4') return isBlockedAddress(bytes.slice(2, 6).join('.'))
  // everything else public lives in 2000::/3 (this also refuses the old ::a.b.c.d form)
  return range !== 'unicast' || !v6.match(GLOBAL_UNICAST_V6)
}

const blockedError = () => new UrlFetchError('blocked', KNOWLEDGE_TEXTS.urlBlocked)
const invalidUrlError = () =>
  new UrlFetchError('invalid_url', 'Enter a valid web address that starts with http:// or https://')

const defaultPort = (protocol: string) => (protocol === 'https:' ? '443' : '80')

/** Both spellings an allow-list entry may use for a host: '::1:8080' and '[::1]:8080'. */
function allowKeys(hostname: string, port: string): string[] {
  const bare = hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.+$/, '')
    .toLowerCase()
  return isIP(bare) === 6 ? [`[${bare}]:${port}`, `${bare}:${port}`] : [`${bare}:${port}`]
}

function isAllowed(allow: readonly string[], hostname: string, port: string): boolean {
  if (!allow.length) return false
  const entries = allow.map((entry) => entry.trim().toLowerCase())
  return allowKeys(hostname, port).some((key) => entries.includes(key))
}

/**
 * The synchronous checks of a URL before any DNS (SS1, SS2): http or https, no credentials, port
 * 80 or 443, no literal non-public IP in any spelling, no 'localhost'. An exact host:port in
 * `allow` skips the port and host checks. Names that resolve to private addresses are caught at
 * connect time by the guarded agent.
 */
export function checkUrl(
  raw: string,
  allow: string[] = [],
): { ok: true; url: URL } | { ok: false; error: UrlFetchError } {
  let url: URL
  try {
    url = new URL(String(raw).trim())
  } catch {
    return { ok: false, error: invalidUrlError() }
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, error: blockedError() }
  }
  if (!url.hostname) return { ok: false, error: invalidUrlError() }
  if (url.username || url.password) return { ok: false, error: blockedError() }
  const port = url.port || defaultPort(url.protocol)
  if (isAllowed(allow, url.hostname, port)) return { ok: true, url }
  if (port !== '80' && port !== '443') return { ok: false, error: blockedError() }
  // the WHATWG parser has already turned 2130706433, 0x7f000001, 0177.0.0.1 and 127.1 into
  // dotted form and compressed v6 literals; a trailing dot would still reach the same host
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.+$/, '')
    .toLowerCase()
  if (host === 'localhost' || host.endsWith('.localhost')) {
    return { ok: false, error: blockedError() }
  }
  if (isIP(host) && isBlockedAddress(host)) return { ok: false, error: blockedError() }
  return { ok: true, url }
}

function resolveAll(
  lookup: LookupFunction,
  hostname: string,
): Promise<{ address: string; family: number }[]> {
  return new Promise((resolve, reject) => {
    lookup(hostname, { all: true }, (error, addresses, family) => {
      if (error) return reject(error)
      if (typeof addresses === 'string')
        return resolve([{ address: addresses, family: family ?? 4 }])
      resolve((addresses ?? []).map((entry) => ({ address: entry.address, family: entry.family })))
    })
  })
}

/**
 * Resolves a name and checks every address it resolves to (SS2, SS4): if any of them is not
 * public the name is refused, unless the exact host:port is allowed. Literal IPs skip DNS.
 * Exposed for callers that want an early answer; the agent repeats it at connect time.
 */
export async function resolveCheckedAddresses(
  hostname: string,
  port: string | number,
  options: { allow?: string[]; lookup?: LookupFunction } = {},
): Promise<{ address: string; family: number }[]> {
  const bare = hostname.replace(/^\[|\]$/g, '').replace(/\.+$/, '')
  const allowed = isAllowed(options.allow ?? [], bare, String(port))
  const family = isIP(bare)
  if (family) {
    if (!allowed && isBlockedAddress(bare)) throw blockedError()
    return [{ address: bare, family }]
  }
  if (
    !allowed &&
    (bare.toLowerCase() === 'localhost' || bare.toLowerCase().endsWith('.localhost'))
  ) {
    throw blockedError()
  }
  let addresses: { address: string; family: number }[]
  try {
    addresses = await resolveAll(options.lookup ?? (dnsLookup as unknown as LookupFunction), bare)
  } catch {
    throw new UrlFetchError('network', 'The site could not be found')
  }
  if (!addresses.length) throw new UrlFetchError('network', 'The site could not be found')
  if (!allowed && addresses.some((entry) => isBlockedAddress(entry.address))) throw blockedError()
  return addresses
}

/**
 * An undici dispatcher whose connector resolves names itself, refuses the connection if any
 * resolved address is not public (unless the exact host:port is allowed), and then connects to the
 * checked address only, never resolving the name again (SS4). TLS still verifies the real name.
 */
export function createGuardedAgent(
  options: { allow?: string[]; lookup?: LookupFunction; timeoutMs?: number } = {},
): Agent {
  const base = buildConnector({ timeout: options.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS })
  const connect: buildConnector.connector = (connectOptions, callback) => {
    const { hostname, protocol } = connectOptions
    const port = String(connectOptions.port || defaultPort(protocol))
    const servername = isIP(hostname) ? undefined : (connectOptions.servername ?? hostname)
    resolveCheckedAddresses(hostname, port, options).then(
      (addresses) => {
        const attempt = (index: number) => {
          const target = addresses[index] as { address: string }
          base(
            { ...connectOptions, hostname: target.address, port, servername },
            (error: Error | null, socket: Socket | null) => {
              if (error && index + 1 < addresses.length) return attempt(index + 1)
              if (error) return callback(error, null)
              callback(null, socket as Socket)
            },
          )
        }
        attempt(0)
      },
      (error: Error) => callback(error, null),
    )
  }
  return new Agent({ connect })
}

function parseFilename(disposition: string | undefined, url: URL): string | null {
  const clean = (name: string) => {
    const base = name.split(/[\\/]/).pop()?.trim() ?? ''
    return base && base !== '.' && base !== '..' ? base : null
  }
  if (disposition) {
    const star = /filename\*\s*=\s*([\w-]+)'[^']*'([^;]+)/i.exec(disposition)
    if (star?.[2]) {
      try {
        const name = clean(decodeURIComponent(star[2].trim().replace(/^"|"$/g, '')))
        if (name) return name
      } catch {
        // an undecodable name falls back to the plain one
      }
    }
    const plain = /(?:^|;)\s*filename\s*=\s*(?:"([^"]*)"|([^;]+))/i.exec(disposition)
    const value = plain?.[1] ?? plain?.[2]
    if (value) {
      const name = clean(value)
      if (name) return name
    }
  }
  const last = url.pathname.split('/').filter(Boolean).pop()
  if (!last) return null
  try {
    return clean(decodeURIComponent(last))
  } catch {
    return clean(last)
  }
}

function parseContentType(value: string): { contentType: string; charset: string | null } {
  const [media = '', ...params] = value.split(';')
  let charset: string | null = null
  for (const param of params) {
    const match = /^\s*charset\s*=\s*"?([^";\s]+)"?\s*$/i.exec(param)
    if (match?.[1]) {
      charset = match[1].toLowerCase()
      break
    }
  }
  return { contentType: media.trim().toLowerCase(), charset }
}

const headerValue = (headers: Dispatcher.ResponseData['headers'], name: string) => {
  const value = headers[name]
  return Array.isArray(value) ? value[0] : value
}

function formatBytes(bytes: number): string {
  const mb = bytes / (1024 * 1024)
  if (mb >= 1) return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`
  const kb = bytes / 1024
  if (kb >= 1) return `${Number.isInteger(kb) ? kb : kb.toFixed(1)} KB`
  return `${bytes} bytes`
}

function formatDuration(ms: number): string {
  return ms >= 1000
    ? `${Number.isInteger(ms / 1000) ? ms / 1000 : (ms / 1000).toFixed(1)} s`
    : `${ms} ms`
}

function decoderFor(encoding: string): NodeJS.ReadWriteStream | null | 'unsupported' {
  const codings = encoding
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding && coding !== 'identity')
  if (!codings.length) return null
  if (codings.length > 1) return 'unsupported'
  switch (codings[0]) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip()
    case 'br':
      return createBrotliDecompress()
    case 'deflate':
      return createInflate()
    default:
      return 'unsupported'
  }
}

/** Drops a response body without reading it; its abort error has nowhere useful to go. */
function discard(body: Readable) {
  body.on('error', () => undefined)
  body.destroy()
}

/**
 * Fetches a public web document (SS1-SS4). Redirects are followed by hand, each hop checked again;
 * the connection itself goes through the guarded agent. Throws UrlFetchError.
 */
export async function safeFetch(
  raw: string,
  options: SafeFetchOptions = {},
): Promise<FetchedDocument> {
  const allow = options.allow ?? []
  const timeoutMs = options.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS
  const maxBytes = options.maxBytes ?? DEFAULT_FETCH_MAX_BYTES
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS
  const agent = createGuardedAgent({ allow, lookup: options.lookup, timeoutMs })
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), timeoutMs)
  const signal = controller.signal
  const timeoutError = () =>
    new UrlFetchError('timeout', `The site did not answer within ${formatDuration(timeoutMs)}`)
  const tooLargeError = () =>
    new UrlFetchError('too_large', `The page is larger than ${formatBytes(maxBytes)}`)
  /** Our own errors pass through; anything else becomes a plain sentence without remote text. */
  const translate = (error: unknown, fallback: string): UrlFetchError => {
    if (error instanceof UrlFetchError) return error
    const cause = (error as { cause?: unknown } | null)?.cause
    if (cause instanceof UrlFetchError) return cause
    if (signal.aborted) return timeoutError()
    const code = (error as { code?: string } | null)?.code
    if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT') {
      return timeoutError()
    }
    return new UrlFetchError('network', fallback)
  }
  try {
    let current = raw
    for (let hop = 0; ; hop++) {
      const checked = checkUrl(current, allow)
      if (!checked.ok) throw checked.error
      const url = checked.url
      let response: Dispatcher.ResponseData
      try {
        response = await request(url, {
          method: 'GET',
          dispatcher: agent,
          signal,
          headers: {
            'user-agent': options.userAgent ?? DEFAULT_USER_AGENT,
            accept: '*/*',
            'accept-encoding': 'gzip, br',
          },
        })
      } catch (error) {
        throw translate(error, 'The site could not be reached')
      }
      const { statusCode, headers, body } = response
      const location = headerValue(headers, 'location')
      if (REDIRECT_STATUSES.has(statusCode) && location) {
        discard(body)
        if (hop >= maxRedirects) {
          throw new UrlFetchError('network', 'The site redirected too many times')
        }
        try {
          current = new URL(location, url).toString()
        } catch {
          throw new UrlFetchError('network', 'The site redirected to an invalid address')
        }
        continue
      }
      if (statusCode < 200 || statusCode >= 300) {
        discard(body)
        const text = STATUS_CODES[statusCode]
        throw new UrlFetchError(
          'http_status',
          `The site answered ${statusCode}${text ? ` ${text}` : ''}`,
        )
      }
      const declared = Number(headerValue(headers, 'content-length'))
      if (Number.isFinite(declared) && declared > maxBytes) {
        discard(body)
        throw tooLargeError()
      }
      const decoder = decoderFor(String(headerValue(headers, 'content-encoding') ?? ''))
      if (decoder === 'unsupported') {
        discard(body)
        throw new UrlFetchError(
          'network',
          'The site sent the page in an encoding Quire cannot read',
        )
      }
      const stream = decoder ? (body.pipe(decoder) as unknown as Readable) : body
      if (decoder) body.on('error', (error) => (decoder as unknown as Readable).destroy(error))
      const chunks: Buffer[] = []
      let total = 0
      try {
        for await (const chunk of stream) {
          const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array)
          total += buffer.length
          if (total > maxBytes) throw tooLargeError()
          chunks.push(buffer)
        }
      } catch (error) {
        throw translate(error, 'The connection broke while reading the page')
      } finally {
        discard(body)
        if (decoder) discard(decoder as unknown as Readable)
      }
      const type = parseContentType(String(headerValue(headers, 'content-type') ?? ''))
      return {
        finalUrl: url.toString(),
        status: statusCode,
        contentType: type.contentType,
        charset: type.charset,
        filename: parseFilename(headerValue(headers, 'content-disposition'), url),
        body: Buffer.concat(chunks),
      }
    }
  } finally {
    clearTimeout(timer)
    agent.destroy().catch(() => undefined)
  }
}
