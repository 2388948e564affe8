import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { unzipSync } from 'fflate'
import type { QuestionRow } from '../contract/questionnaires.ts'
import { DEFAULT_PARSE_LIMITS } from '../server/ingest/types.ts'
import { readWorkbook } from '../server/ingest/xlsx.ts'
import { cellWrites } from '../server/modules/questionnaires/export-build.ts'
import { type CellWrite, patchWorkbook } from '../server/workbooks/patch-xlsx.ts'
import { readQuestionnaireBuffer } from '../server/workbooks/read.ts'

/**
 * `npm run eval:export` (or `-- FILE`): fills each known workbook with answers (a dropdown's first
 * allowed value, an 'x' in the first mark column, text elsewhere) and proves fidelity, one JSON line
 * per file: every part other than the patched sheets is byte-identical, every cell other than the
 * answer cells reads the same, hidden sheets, validations, merges and names are unchanged, every
 * dropdown value is allowed, and the file converts with LibreOffice when it is installed.
 */
const root = fileURLToPath(new URL('..', import.meta.url))
const shared = path.resolve(root, '../shared/data/questionnaires')
const FILES = [
  'CSA_CAIQv4.0.3_blank.xlsx',
  'csa-caiq-v3.0.1-09-01-2017.xlsx',
  'HECVAT_Full_v3.06_blank.xlsx',
  'HECVAT_4.1.4_blank.xlsx',
  'instructure/Canvas_Credentials_Canvas_Credentials_HECVAT_Lite_v3.xlsx',
]

const office = ['soffice', 'libreoffice'].find((bin) => {
  try {
    execFileSync('which', [bin], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
})

async function evaluate(file: string) {
  const original = readFileSync(file)
  const before = readWorkbook(original, { fillMerged: false })
  // the product's own analysis and its own mapping of an answer onto cells (export.ts)
  const { tabs } = await readQuestionnaireBuffer(
    original,
    path.basename(file),
    'xlsx',
    {},
    DEFAULT_PARSE_LIMITS,
  )
  const questions = tabs.flatMap((tab) => tab.questions)
  const writes: CellWrite[] = []
  for (const [index, q] of questions.entries()) {
    const target = q.target
    if (target?.type !== 'cell') continue
    const choice = q.vocabulary?.[0] ?? (target.marks?.length ? 'Yes' : null)
    const row = {
      id: index,
      vocabulary: q.vocabulary,
      answer: {
        text: `Answer to ${q.ref ?? q.text.slice(0, 20)}: see our security overview.`,
        choice,
        comment: '',
      },
    } as unknown as QuestionRow
    for (const cell of cellWrites(target, row))
      writes.push({ sheet: target.sheet, row: target.row, ...cell })
  }
  const { buffer, skipped } = patchWorkbook(original, writes)
  const after = readWorkbook(buffer, { fillMerged: false })
  const differs: string[] = []
  // parts other than the patched sheets: byte for byte
  const a = unzipSync(new Uint8Array(original))
  const b = unzipSync(new Uint8Array(buffer))
  const patchedSheets = new Set(writes.map((w) => w.sheet))
  if (Object.keys(a).join('|') !== Object.keys(b).join('|')) differs.push('package parts')
  const written = new Set(writes.map((w) => `${w.sheet}!${w.row - 1}:${w.column}`))
  before.sheets.forEach((sheet, index) => {
    const other = after.sheets[index]
    if (!other || other.name !== sheet.name || other.hidden !== sheet.hidden)
      differs.push(`sheet ${sheet.name}`)
    if (!other) return
    if (JSON.stringify(other.validations) !== JSON.stringify(sheet.validations))
      differs.push(`validations of ${sheet.name}`)
    if (JSON.stringify(other.merges) !== JSON.stringify(sheet.merges))
      differs.push(`merges of ${sheet.name}`)
    const rows = Math.max(sheet.rows.length, other.rows.length)
    for (let r = 0; r < rows; r++) {
      const width = Math.max(sheet.rows[r]?.length ?? 0, other.rows[r]?.length ?? 0)
      for (let c = 0; c < width; c++) {
        if (written.has(`${sheet.name}!${r}:${c}`)) continue
        if ((sheet.rows[r]?.[c] ?? '') !== (other.rows[r]?.[c] ?? ''))
          differs.push(`${sheet.name} cell ${r + 1}:${c}`)
      }
    }
  })
  // parts other than worksheets are byte-identical; only as many worksheets changed as were patched
  let changedSheets = 0
  for (const [name, data] of Object.entries(a)) {
    const other = b[name]
    if (!other) differs.push(`missing ${name}`)
    else if (Buffer.compare(Buffer.from(data), Buffer.from(other)) !== 0) {
      if (name.startsWith('xl/worksheets/')) changedSheets += 1
      else differs.push(`part ${name}`)
    }
  }
  if (changedSheets > patchedSheets.size)
    differs.push(`${changedSheets} worksheets changed, ${patchedSheets.size} patched`)
  if (JSON.stringify([...before.names]) !== JSON.stringify([...after.names]))
    differs.push('defined names')
  // every answer reads back; every dropdown value is allowed by its cell's list
  let disallowed = 0
  for (const w of writes) {
    const sheet = after.sheets.find((s) => s.name === w.sheet)
    if ((sheet?.rows[w.row - 1]?.[w.column] ?? '') !== w.value)
      differs.push(`answer ${w.sheet}!${w.row}:${w.column}`)
  }
  for (const q of questions) {
    const target = q.target
    if (!q.vocabulary?.length || target?.type !== 'cell' || target.column === null) continue
    const value = after.sheets.find((s) => s.name === target.sheet)?.rows[target.row - 1]?.[
      target.column
    ]
    if (value && !q.vocabulary.includes(value)) disallowed += 1
  }
  let opens: boolean | string = `not checked: LibreOffice is not installed`
  if (office) {
    const dir = mkdtempSync(path.join(tmpdir(), 'quire-export-'))
    try {
      const filled = path.join(dir, 'filled.xlsx')
      writeFileSync(filled, buffer)
      execFileSync(office, ['--headless', '--convert-to', 'csv', '--outdir', dir, filled], {
        stdio: 'ignore',
        timeout: 120_000,
      })
      opens = existsSync(path.join(dir, 'filled.csv'))
    } catch {
      opens = false
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }
  const ok = differs.length === 0 && disallowed === 0 && skipped.length === 0 && opens !== false
  console.log(
    JSON.stringify({
      file: path.relative(root, file),
      ok,
      questions: questions.length,
      written: writes.length,
      skipped: skipped.length,
      disallowed,
      opens,
      differs: differs.slice(0, 10),
      differences: differs.length,
    }),
  )
}

const arg = process.argv[2]
if (arg) await evaluate(path.resolve(arg))
else if (!existsSync(shared))
  console.log(JSON.stringify({ eval: 'export', skipped: `${shared} not found` }))
else
  for (const name of FILES)
    if (existsSync(path.join(shared, name))) await evaluate(path.join(shared, name))
