import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { leadingChoice } from '../../../server/answering/text.ts'
import { DEFAULT_PARSE_LIMITS } from '../../../server/ingest/types.ts'
import { readWorkbook } from '../../../server/ingest/xlsx.ts'
import type { AnswerTarget } from '../../../server/workbooks/analyse.ts'
import { csvTable, readQuestionnaireBuffer } from '../../../server/workbooks/read.ts'

/**
 * Where `npm run eval:answers` reads its data, and the gold answers it reads from a completed
 * questionnaire: the answer cells its analysis located, never anything the engine saw.
 */

/** The repository's root. */
export const root = fileURLToPath(new URL('../../..', import.meta.url))
/** The folder of real questionnaires beside the repository (the development protocols' files). */
export const shared = path.resolve(root, '../shared/data/questionnaires')
/** One vendor's completed HECVATs, of several products and dates. */
export const instructure = path.join(shared, 'instructure')

export interface Gold {
  choice: 'yes' | 'no' | 'na' | null
  text: string
}

const kindOf = (file: string) => {
  const ext = path.extname(file).toLowerCase()
  return ext === '.csv' ? 'csv' : ext === '.docx' ? 'docx' : ext === '.pdf' ? 'pdf' : 'xlsx'
}

/** A question's key in the gold answers: its ref, else its text with the spacing evened. */
export const keyOf = (ref: string | null, text: string) =>
  ref ?? text.toLowerCase().replace(/\s+/g, ' ').trim()

/** Gold answers by question (ref, else text), read from the answer cells analysis located. */
export async function goldOf(file: string): Promise<Map<string, Gold>> {
  const buffer = readFileSync(file)
  const kind = kindOf(file)
  const { tabs } = await readQuestionnaireBuffer(
    buffer,
    path.basename(file),
    kind,
    {},
    DEFAULT_PARSE_LIMITS,
  )
  const sheets =
    kind === 'csv'
      ? [{ name: tabs[0]?.name ?? '', rows: csvTable(buffer).rows }]
      : kind === 'xlsx'
        ? readWorkbook(buffer, { fillMerged: false }).sheets
        : []
  const gold = new Map<string, Gold>()
  for (const tab of tabs) {
    for (const question of tab.questions) {
      const target = question.target as AnswerTarget | null
      if (target?.type !== 'cell') continue
      const row = sheets.find((sheet) => sheet.name === target.sheet)?.rows[target.row - 1] ?? []
      let answer = target.column !== null ? (row[target.column] ?? '').trim() : ''
      if (target.marks?.length) {
        const marked = target.marks.find((mark) => (row[mark.column] ?? '').trim())
        answer = marked?.label ?? ''
      }
      const comment = target.comment !== null ? (row[target.comment] ?? '').trim() : ''
      if (!answer && !comment) continue
      gold.set(keyOf(question.ref, question.text), {
        choice: leadingChoice(answer),
        text: [leadingChoice(answer) ? '' : answer, comment].filter(Boolean).join(' '),
      })
    }
  }
  return gold
}
