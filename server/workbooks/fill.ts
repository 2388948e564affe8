import ExcelJS from 'exceljs'
import Papa from 'papaparse'
import type { ParseLimits } from '../ingest/types.ts'
import { checkZip } from '../ingest/zip-guard.ts'
import { type DocxWrite, patchDocx } from './docx.ts'
import { type CellWrite, neutralise, patchWorkbook } from './patch-xlsx.ts'
import { csvTable } from './read.ts'

/**
 * Building export files: the customer's own file with the answers written in, or a clean table.
 * This runs in a parser process (server/ingest/pool.ts), never in the API process: a stored
 * package is checked again by its central directory and inflated under a running count before it
 * is opened, and the process has a deadline and a memory cap, so no workbook can stall the API.
 */

export type FillJob =
  | { kind: 'xlsx'; writes: CellWrite[] }
  | { kind: 'csv'; writes: { row: number; column: number; value: string }[] }
  | { kind: 'docx'; writes: DocxWrite[] }

export interface BasicTable {
  format: 'xlsx' | 'csv'
  header: string[]
  lines: string[][]
}

/**
 * A cell a spreadsheet could read as a formula, before or after its `'` (UP9): quoted in every CSV
 * we write, whatever the separator, so that no reader splits or trims it into a live formula.
 */
const FORMULA_LIKE = /^'?[=+\-@\t\r\0]/
const quoteFormulae = (value: unknown) => typeof value === 'string' && FORMULA_LIKE.test(value)

/** The original file with the answers written into it. */
export function fillOriginal(buffer: Buffer, job: FillJob, limits: ParseLimits): Uint8Array {
  if (job.kind === 'xlsx') {
    checkZip(buffer, limits)
    return patchWorkbook(new Uint8Array(buffer), job.writes).buffer
  }
  if (job.kind === 'docx') {
    checkZip(buffer, limits)
    return patchDocx(new Uint8Array(buffer), job.writes)
  }
  const table = csvTable(buffer)
  for (const write of job.writes) {
    const line = table.rows[write.row - 1]
    if (!line) continue
    while (line.length <= write.column) line.push('')
    line[write.column] = neutralise(write.value)
  }
  const text = Papa.unparse(table.rows, {
    delimiter: table.delimiter,
    newline: table.newline,
    quotes: quoteFormulae,
  })
  return Buffer.concat([
    table.bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0),
    Buffer.from(`${text}${table.newline}`, 'utf8'),
  ])
}

const WIDTHS = [18, 12, 24, 60, 70, 14, 40, 12, 12, 40]

/** A clean table of every question and its answer; every cell neutralised (UP9). */
export async function basicTable(table: BasicTable): Promise<Uint8Array> {
  const safe = table.lines.map((line) => line.map((cell) => neutralise(cell)))
  if (table.format === 'csv') {
    return Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(
        `${Papa.unparse([table.header, ...safe], { newline: '\r\n', quotes: quoteFormulae })}\r\n`,
        'utf8',
      ),
    ])
  }
  const workbook = new ExcelJS.Workbook()
  workbook.creator = 'Quire'
  const sheet = workbook.addWorksheet('Answers', { views: [{ state: 'frozen', ySplit: 1 }] })
  sheet.columns = table.header.map((_, index) => ({ width: WIDTHS[index] ?? 20 }))
  sheet.addRow(table.header).font = { bold: true }
  for (const line of safe) sheet.addRow(line)
  sheet.eachRow((row, index) => {
    if (index > 1) row.alignment = { wrapText: true, vertical: 'top' }
  })
  sheet.autoFilter = { from: 'A1', to: `${String.fromCharCode(64 + table.header.length)}1` }
  return new Uint8Array(await workbook.xlsx.writeBuffer())
}
