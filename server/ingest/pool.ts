import { execFile, fork } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import type { FileKind } from '../../contract/knowledge.ts'
import type { BasicTable, FillJob } from '../workbooks/fill.ts'
import { ParseError, type ParseLimits } from './types.ts'

/**
 * Runs parsers, and the building of export files, in worker processes (UP7): each gets a heap
 * cap, a resident-memory watchdog (buffers and native memory live outside the heap) and a
 * deadline, after which it is killed and the work fails with a plain message; the API's event
 * loop never waits on a parser, and a parser that runs out of memory dies alone. A worker gets only
 * the environment it needs to run, never the server's secrets. At most (cores - 1, at least 1)
 * workers run at once; the rest queue.
 */

export type WorkerRequest =
  | {
      op: 'parse' | 'table' | 'questionnaire'
      filePath: string
      name: string
      kind: FileKind | 'xlsx' | 'csv' | 'docx' | 'pdf'
      limits: ParseLimits
      /** For 'questionnaire': mappings the user confirmed, by tab name. */
      mappings?: Record<string, import('../../contract/questionnaires.ts').TabMapping>
    }
  /** The stored original with answers written in (server/workbooks/fill.ts). */
  | { op: 'fill'; filePath: string; job: FillJob; limits: ParseLimits }
  /** A clean table of the answers. */
  | { op: 'basic'; table: BasicTable; limits: ParseLimits }

export type WorkerResponse =
  | { type: 'progress'; fraction: number }
  | { type: 'done'; result: unknown }
  | { type: 'error'; message: string; known: boolean; detail: string }

/** What a worker process may see of the environment: enough to run Node, nothing secret. */
const WORKER_ENV_KEYS = ['PATH', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'TMPDIR', 'SYSTEMROOT']
export function workerEnvironment(source: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { NODE_OPTIONS: '' }
  for (const key of WORKER_ENV_KEYS) if (source[key] !== undefined) env[key] = source[key]
  return env
}

/** Resident set size of a process in bytes, or null when it cannot be read. */
async function residentBytes(pid: number): Promise<number | null> {
  if (process.platform === 'linux') {
    try {
      const status = await readFile(`/proc/${pid}/status`, 'utf8')
      const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1]
      return kb ? Number(kb) * 1024 : null
    } catch {
      return null
    }
  }
  return new Promise((resolve) => {
    execFile('ps', ['-o', 'rss=', '-p', String(pid)], (error, stdout) => {
      const kb = Number(stdout.trim())
      resolve(error || !Number.isFinite(kb) || kb <= 0 ? null : kb * 1024)
    })
  })
}

const WATCH_EVERY_MS = process.platform === 'linux' ? 25 : 200

const MAX_PARALLEL = Math.max(1, availableParallelism() - 1)
let running = 0
const waiting: (() => void)[] = []

async function slot() {
  if (running < MAX_PARALLEL) {
    running += 1
    return
  }
  await new Promise<void>((resolve) => waiting.push(resolve))
  running += 1
}

function release() {
  running -= 1
  waiting.shift()?.()
}

const WORKER_PATH = fileURLToPath(new URL('./worker.ts', import.meta.url))

export async function runInWorker<T>(
  request: WorkerRequest,
  onProgress?: (fraction: number) => void,
): Promise<T> {
  await slot()
  try {
    return await new Promise<T>((resolve, reject) => {
      const child = fork(WORKER_PATH, [], {
        execArgv: [
          `--max-old-space-size=${request.limits.memoryMb}`,
          '--disable-warning=ExperimentalWarning',
        ],
        serialization: 'advanced',
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
        env: workerEnvironment(),
      })
      const exporting = request.op === 'fill' || request.op === 'basic'
      const task = exporting ? 'Writing the export' : 'Reading the file'
      let stderr = ''
      child.stderr?.on('data', (chunk: Buffer) => {
        if (stderr.length < 4000) stderr += chunk.toString()
      })
      let settled = false
      const finish = (action: () => void) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        clearInterval(watchdog)
        action()
        if (child.exitCode === null) child.kill('SIGKILL')
      }
      const timer = setTimeout(() => {
        finish(() =>
          reject(
            new ParseError(
              `${task} took longer than ${Math.round(request.limits.timeoutMs / 1000)} s and was stopped`,
            ),
          ),
        )
      }, request.limits.timeoutMs)
      // the heap cap leaves buffers and native memory free to grow: watch the resident size
      const rssCap = request.limits.rssMb * 1024 * 1024
      let watching = false
      const watchdog = setInterval(async () => {
        if (watching || settled || child.pid === undefined) return
        watching = true
        const rss = await residentBytes(child.pid)
        watching = false
        if (rss !== null && rss > rssCap && !settled) {
          child.kill('SIGKILL')
          finish(() =>
            reject(
              new ParseError(
                `${task} needed more than ${request.limits.rssMb.toLocaleString('en')} MB of memory and was stopped`,
                { cause: `resident ${Math.round(rss / 1024 / 1024)} MB` },
              ),
            ),
          )
        }
      }, WATCH_EVERY_MS)
      child.on('message', (message: WorkerResponse) => {
        if (message.type === 'progress') onProgress?.(message.fraction)
        else if (message.type === 'done') finish(() => resolve(message.result as T))
        else {
          const error = new ParseError(message.message)
          if (!message.known) error.cause = message.detail
          finish(() => reject(error))
        }
      })
      child.on('error', (error) => {
        finish(() => reject(new ParseError('The file could not be read', { cause: error })))
      })
      child.on('exit', (code, signal) => {
        const outOfMemory = /heap out of memory|Allocation failed/i.test(stderr)
        finish(() =>
          reject(
            new ParseError(
              outOfMemory
                ? exporting
                  ? 'The export is too large to write'
                  : 'The file is too large or complex to read'
                : exporting
                  ? 'The export could not be written'
                  : 'The file could not be read',
              { cause: `exit ${code ?? signal}: ${stderr.slice(-500)}` },
            ),
          ),
        )
      })
      child.send(request)
    })
  } finally {
    release()
  }
}
