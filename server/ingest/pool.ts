import { fork } from 'node:child_process'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import type { FileKind } from '../../contract/knowledge.ts'
import { ParseError, type ParseLimits } from './types.ts'

/**
 * Runs parsers in worker processes (UP7): each gets a heap cap and a deadline, after which it is
 * killed and the file fails with a plain message; the API's event loop never waits on a parser,
 * and a parser that runs out of memory dies alone (a worker thread that hits its heap limit can
 * abort the whole process). At most (cores - 1, at least 1) parsers run at once; the rest queue.
 */

export interface WorkerRequest {
  op: 'parse' | 'table' | 'questionnaire'
  filePath: string
  name: string
  kind: FileKind | 'xlsx' | 'csv' | 'docx' | 'pdf'
  limits: ParseLimits
  /** For 'questionnaire': mappings the user confirmed, by tab name. */
  mappings?: Record<string, import('../../contract/questionnaires.ts').TabMapping>
}

export type WorkerResponse =
  | { type: 'progress'; fraction: number }
  | { type: 'done'; result: unknown }
  | { type: 'error'; message: string; known: boolean; detail: string }

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
        env: { ...process.env, NODE_OPTIONS: '' },
      })
      let stderr = ''
      child.stderr?.on('data', (chunk: Buffer) => {
        if (stderr.length < 4000) stderr += chunk.toString()
      })
      let settled = false
      const finish = (action: () => void) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        action()
        if (child.exitCode === null) child.kill('SIGKILL')
      }
      const timer = setTimeout(() => {
        finish(() =>
          reject(
            new ParseError(
              `Reading the file took longer than ${Math.round(request.limits.timeoutMs / 1000)} s and was stopped`,
            ),
          ),
        )
      }, request.limits.timeoutMs)
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
                ? 'The file is too large or complex to read'
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
