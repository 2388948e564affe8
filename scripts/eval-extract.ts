import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import Papa from 'papaparse'
import { decodeText } from '../server/ingest/parsers.ts'
import { DEFAULT_PARSE_LIMITS } from '../server/ingest/types.ts'
import { readWorkbook } from '../server/ingest/xlsx.ts'
import { normaliseId } from '../server/workbooks/extract.ts'
import { readQuestionnaireBuffer } from '../server/workbooks/read.ts'

/**
 * `npm run eval:extract`: question extraction against the known counts of the shared real
 * questionnaires, one JSON line per file; `npm run eval:extract -- --expect N FILE` for any file.
 * Skips cleanly when the shared folder is absent.
 */
const root = fileURLToPath(new URL('..', import.meta.url))
const shared = path.resolve(root, '../shared/data/questionnaires')

const KNOWN: [string, number][] = [
  ['CSA_CAIQv4.0.3_blank.xlsx', 261],
  ['csa-caiq-v3.0.1-09-01-2017.xlsx', 295],
  ['HECVAT_Full_v3.06_blank.xlsx', 255],
  ['HECVAT_4.1.4_blank.xlsx', 331],
  ['instructure/Canvas_Credentials_Canvas_Credentials_HECVAT_Lite_v3.xlsx', 94],
  ['instructure/Search_Intelligent_Insights_Intelligent_Insights_HECVAT_Lite.csv', 94],
]

const kindOf = (file: string) => {
  const ext = path.extname(file).toLowerCase()
  return ext === '.csv' ? 'csv' : ext === '.docx' ? 'docx' : ext === '.pdf' ? 'pdf' : 'xlsx'
}

async function evaluate(file: string, expected: number) {
  const kind = kindOf(file)
  const started = performance.now()
  // the product's own analysis (server/workbooks/read.ts), without the worker process
  const { tabs } = await readQuestionnaireBuffer(
    readFileSync(file),
    path.basename(file),
    kind,
    {},
    DEFAULT_PARSE_LIMITS,
  )
  const ms = Math.round(performance.now() - started)
  const all = tabs.flatMap((tab) => tab.questions)
  const questions = all.map((q) => ({ id: q.ref ?? '', text: q.text }))
  const sheets =
    kind === 'xlsx'
      ? readWorkbook(readFileSync(file), { fillMerged: true }).sheets.filter((s) => !s.hidden)
      : kind === 'csv'
        ? [{ name: file, rows: Papa.parse<string[]>(decodeText(readFileSync(file))).data }]
        : []
  // every distinct ID-shaped cell anywhere, to tell a missed question from a count the file cannot meet
  const idsInFile = new Set(
    sheets.flatMap((sheet) =>
      sheet.rows.flatMap((row) => row.flatMap((cell) => normaliseId(cell) ?? [])),
    ),
  )
  const located = (q: (typeof all)[number]) =>
    q.target !== null &&
    (q.target.type !== 'cell' || q.target.column !== null || q.target.marks !== null)
  const line: Record<string, unknown> = {
    file: path.relative(root, file),
    expected,
    found: all.length,
    ok: all.length === expected,
    ms,
    tabs: tabs.filter((tab) => tab.questions.length).map((tab) => tab.name),
    unsure_tabs: tabs.filter((tab) => tab.mappingState === 'unsure').map((tab) => tab.name),
    ids_in_file: idsInFile.size,
    answer_cells: all.filter(located).length,
    with_list: all.filter((q) => q.vocabulary?.length).length,
    lists: [...new Set(all.flatMap((q) => (q.vocabulary ? [q.vocabulary.join('/')] : [])))].slice(
      0,
      4,
    ),
  }
  const dataset = path.join(path.dirname(file), 'CSA_CAIQv4.0.3_primary-dataset.json')
  if (path.basename(file) === 'CSA_CAIQv4.0.3_blank.xlsx' && existsSync(dataset)) {
    const truth = (
      JSON.parse(readFileSync(dataset, 'utf8')) as { questions: { id: string; body: string }[] }
    ).questions
    const clean = (text: string) => text.replace(/\s+/g, ' ').trim()
    const byId = new Map(questions.map((q) => [q.id, clean(q.text)]))
    const mismatched = truth.filter((q) => byId.get(q.id) !== clean(q.body)).map((q) => q.id)
    line.texts_equal = mismatched.length === 0
    if (mismatched.length) line.text_mismatches = mismatched.slice(0, 10)
    line.ok = line.ok && mismatched.length === 0
  }
  console.log(JSON.stringify(line))
}

const args = process.argv.slice(2)
const expectAt = args.indexOf('--expect')
if (expectAt >= 0) {
  const expected = Number(args[expectAt + 1])
  const file = args.find((_arg, i) => i !== expectAt && i !== expectAt + 1)
  if (!file || !Number.isFinite(expected)) {
    console.error('usage: npm run eval:extract -- --expect N FILE')
    process.exit(2)
  }
  await evaluate(path.resolve(file), expected)
} else if (!existsSync(shared)) {
  console.log(JSON.stringify({ eval: 'extract', skipped: `${shared} not found` }))
} else {
  for (const [name, expected] of KNOWN) {
    const file = path.join(shared, name)
    if (existsSync(file)) await evaluate(file, expected)
  }
  for (const name of [
    'Canvas_Catalog_Canvas_Catalog_HECVAT_Lite.xlsx',
    'Canvas_Studio_Canvas_Studio_HECVAT_Lite.xlsx',
    'LearnPlatform_LearnPlatform_HECVAT_Lite.xlsx',
    'Mastery_Connect_Mastery_Connect_HECVAT_Lite.xlsx',
  ]) {
    const file = path.join(shared, 'instructure', name)
    if (existsSync(file)) await evaluate(file, 94)
  }
}
