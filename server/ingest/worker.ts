import { readFile } from 'node:fs/promises'
import { parseFileDirect, readTableDirect } from './parsers.ts'
import type { WorkerRequest, WorkerResponse } from './pool.ts'
import { ParseError } from './types.ts'

/** A parser worker process: one request over IPC, one answer, then it exits. */
const request = await new Promise<WorkerRequest>((resolve) => process.once('message', resolve))
const post = (message: WorkerResponse) =>
  new Promise<void>((resolve) => process.send?.(message, undefined, {}, () => resolve()))

let lastProgress = 0
const onProgress = (fraction: number) => {
  const now = Date.now()
  if (now - lastProgress < 200 && fraction < 1) return
  lastProgress = now
  post({ type: 'progress', fraction })
}

async function run(request: WorkerRequest): Promise<unknown> {
  switch (request.op) {
    case 'questionnaire':
      return (await import('../workbooks/read.ts')).readQuestionnaireDirect(
        request.filePath,
        request.name,
        request.kind as 'xlsx' | 'csv' | 'docx' | 'pdf',
        request.mappings ?? {},
        request.limits,
      )
    case 'parse':
      return parseFileDirect(
        request.filePath,
        request.name,
        request.kind,
        request.limits,
        onProgress,
      )
    case 'table':
      return readTableDirect(
        request.filePath,
        request.name,
        request.kind as 'csv' | 'xlsx',
        request.limits,
      )
    case 'fill': {
      const { fillOriginal } = await import('../workbooks/fill.ts')
      return fillOriginal(await readFile(request.filePath), request.job, request.limits)
    }
    case 'basic':
      return (await import('../workbooks/fill.ts')).basicTable(request.table)
  }
}

try {
  const result = await run(request)
  await post({ type: 'done', result })
} catch (error) {
  await post({
    type: 'error',
    message: error instanceof ParseError ? error.message : 'The file could not be read',
    known: error instanceof ParseError,
    detail: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
  })
}

process.disconnect?.()
