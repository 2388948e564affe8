import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { parseFile } from '../server/ingest/index.ts'
import { root, round } from './support.ts'

/**
 * Ingestion throughput on real documents: every PDF and workbook of the shared Instructure
 * package, parsed as the ingestion job parses them (in parser processes). Skips when the shared
 * data folder is absent.
 */
const dir = path.resolve(root, '../shared/data/questionnaires/instructure')
if (!existsSync(dir)) {
  console.log(JSON.stringify({ bench: 'ingest', skipped: `${dir} not found` }))
  process.exit(0)
}
const files = [dir, path.join(dir, 'documents')]
  .filter((d) => existsSync(d))
  .flatMap((d) => readdirSync(d).map((name) => path.join(d, name)))
  .filter((file) => /\.(pdf|xlsx)$/i.test(file) && statSync(file).isFile())

const totals = {
  pdf: { files: 0, pages: 0, ms: 0, passages: 0 },
  xlsx: { files: 0, rows: 0, ms: 0, passages: 0 },
}
const started = performance.now()
for (const file of files) {
  const kind = file.toLowerCase().endsWith('.pdf') ? 'pdf' : 'xlsx'
  const t = performance.now()
  const result = await parseFile(file, kind, { name: path.basename(file) })
  const ms = performance.now() - t
  if (kind === 'pdf') {
    totals.pdf.files += 1
    totals.pdf.pages += result.pages ?? 0
    totals.pdf.ms += ms
    totals.pdf.passages += result.passages.length
  } else {
    totals.xlsx.files += 1
    totals.xlsx.rows += result.pages ?? 0
    totals.xlsx.ms += ms
    totals.xlsx.passages += result.passages.length
  }
}
console.log(
  JSON.stringify({
    bench: 'ingest',
    pdf_files: totals.pdf.files,
    pdf_pages: totals.pdf.pages,
    pdf_pages_per_s: round(totals.pdf.pages / (totals.pdf.ms / 1000)),
    xlsx_files: totals.xlsx.files,
    xlsx_rows: totals.xlsx.rows,
    xlsx_rows_per_s: round(totals.xlsx.rows / (totals.xlsx.ms / 1000)),
    passages: totals.pdf.passages + totals.xlsx.passages,
    total_s: round((performance.now() - started) / 1000, 2),
  }),
)
