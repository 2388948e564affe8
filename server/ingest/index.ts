import type { FileKind } from '../../contract/knowledge.ts'
import { runInWorker } from './pool.ts'
import {
  DEFAULT_PARSE_LIMITS,
  type ParseLimits,
  type ParseResult,
  type TableSheet,
} from './types.ts'

/**
 * Ingestion's parsers: what a file says and where each passage came from. Every parse runs in a
 * worker thread with a deadline and a heap cap (UP7); OOXML packages are checked before they are
 * opened (UP3-UP5).
 */

export { type DetectResult, detectFileKind, kindFromName, mimeOf } from './detect.ts'
export { parseHtmlString } from './html.ts'
export {
  type QaColumns,
  qaRowsOf,
  recogniseQaColumns,
  SKIP_REASONS,
  type SkipReason,
} from './table.ts'
export * from './types.ts'

export interface ParseOptions {
  limits?: Partial<ParseLimits>
  onProgress?: (fraction: number) => void
  /** The original file name (CSV files take their sheet name from it). */
  name?: string
}

export function parseFile(filePath: string, kind: FileKind, options: ParseOptions = {}) {
  return runInWorker<ParseResult>(
    {
      op: 'parse',
      filePath,
      name: options.name ?? filePath,
      kind,
      limits: { ...DEFAULT_PARSE_LIMITS, ...options.limits },
    },
    options.onProgress,
  )
}

export function readTable(
  filePath: string,
  kind: 'csv' | 'xlsx',
  options: Omit<ParseOptions, 'onProgress'> = {},
) {
  return runInWorker<{ sheets: TableSheet[] }>({
    op: 'table',
    filePath,
    name: options.name ?? filePath,
    kind,
    limits: { ...DEFAULT_PARSE_LIMITS, ...options.limits },
  })
}

/** A questionnaire's tabs and questions (see server/workbooks/read.ts), in a parser process. */
export function readQuestionnaire(
  filePath: string,
  kind: 'xlsx' | 'csv' | 'docx' | 'pdf',
  options: Omit<ParseOptions, 'onProgress'> & {
    mappings?: Record<string, import('../../contract/questionnaires.ts').TabMapping>
  } = {},
) {
  return runInWorker<import('../workbooks/read.ts').QuestionnaireReadResult>({
    op: 'questionnaire',
    filePath,
    name: options.name ?? filePath,
    kind,
    limits: { ...DEFAULT_PARSE_LIMITS, ...options.limits },
    mappings: options.mappings ?? {},
  })
}

/** The stored original with the answers written in, built in a worker process (export). */
export async function fillFile(
  filePath: string,
  job: import('../workbooks/fill.ts').FillJob,
  limits: Partial<ParseLimits> = {},
) {
  const data = await runInWorker<Uint8Array>({
    op: 'fill',
    filePath,
    job,
    limits: { ...DEFAULT_PARSE_LIMITS, ...limits },
  })
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength)
}

/** A clean table of the answers, built in a worker process (export). */
export async function basicFile(
  table: import('../workbooks/fill.ts').BasicTable,
  limits: Partial<ParseLimits> = {},
) {
  const data = await runInWorker<Uint8Array>({
    op: 'basic',
    table,
    limits: { ...DEFAULT_PARSE_LIMITS, ...limits },
  })
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength)
}
export { propertiesDate, statedInRows } from './dates.ts'
