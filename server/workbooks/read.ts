import { readFile } from 'node:fs/promises'
import path from 'node:path'
import Papa from 'papaparse'
import type { QuestionnaireFileKind, TabMapping } from '../../contract/questionnaires.ts'
import { decodeText, parseBuffer } from '../ingest/parsers.ts'
import { ParseError, type ParseLimits } from '../ingest/types.ts'
import { readWorkbook } from '../ingest/xlsx.ts'
import { checkZip } from '../ingest/zip-guard.ts'
import { type AnalysedQuestion, type AnalysedTab, analyseSheets } from './analyse.ts'
import { readDocx } from './docx.ts'
import { looksLikeQuestion, normaliseId } from './extract.ts'

/**
 * Reads a questionnaire file into tabs and questions. Runs inside a parser process (UP7): the
 * caller goes through the worker pool, never calls this in the API process.
 */

export interface QuestionnaireReadResult {
  tabs: AnalysedTab[]
}

const baseName = (name: string) => path.basename(name).replace(/\.[^.]+$/, '') || 'Questions'

/** CSV rows as the file holds them (cells untrimmed), with the delimiter and byte-order mark. */
export function csvTable(buffer: Buffer) {
  const bom = buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf
  const parsed = Papa.parse<string[]>(decodeText(buffer), {
    skipEmptyLines: false,
    delimitersToGuess: [',', ';', '\t', '|'],
  })
  const rows = parsed.data.map((row) => row.map((cell) => String(cell ?? '')))
  while (rows.length && !rows[rows.length - 1]?.some((cell) => cell.trim())) rows.pop()
  return {
    rows,
    delimiter: parsed.meta.delimiter || ',',
    newline: parsed.meta.linebreak || '\r\n',
    bom,
  }
}

/**
 * The one tab of a document (DOCX or PDF) and its questions, each kept once by its key; the key,
 * prefixed with the tab's name, is the question's match key across re-analyses.
 */
function documentTab(tabName: string) {
  const questions: AnalysedQuestion[] = []
  const seen = new Set<string>()
  return {
    questions,
    add(key: string, question: Omit<AnalysedQuestion, 'vocabulary' | 'matchKey'>) {
      if (seen.has(key)) return
      seen.add(key)
      questions.push({ ...question, vocabulary: null, matchKey: `${tabName}\u001f${key}` })
    },
    tabs(): AnalysedTab[] {
      return [
        {
          name: tabName,
          mapping: null,
          mappingState: questions.length ? 'detected' : 'unsure',
          headers: [],
          preview: [],
          questions,
        },
      ]
    },
  }
}

function docxTabs(buffer: Buffer, name: string): AnalysedTab[] {
  const layout = readDocx(buffer)
  const tabName = baseName(name)
  const document = documentTab(tabName)
  layout.tables.forEach((table, tableIndex) => {
    const rows = table.map((row) => row.map((cell) => cell.text))
    const [tab] = analyseSheets([{ name: tabName, rows }])
    for (const question of tab?.questions ?? []) {
      if (question.target?.type !== 'cell') continue
      const target = question.target
      const row = target.row - 1
      // a two-column table without an answer header: the cell right of the question
      const questionCell = tab?.mapping?.question_column ?? 0
      const answerCell =
        target.column ?? ((table[row]?.length ?? 0) > questionCell + 1 ? questionCell + 1 : null)
      document.add(`${tableIndex}\u001f${question.ref ?? question.text.toLowerCase()}`, {
        ...question,
        target:
          answerCell === null
            ? null
            : {
                type: 'docx_cell',
                table: tableIndex,
                row,
                cell: answerCell,
                comment: target.comment,
              },
      })
    }
  })
  // tables without a header: a cell that reads as a question, answered in the cell to its right
  if (!document.questions.length) {
    layout.tables.forEach((table, tableIndex) => {
      table.forEach((cells, row) => {
        const at = cells.findIndex((cell) => looksLikeQuestion(cell.text))
        if (at < 0) return
        const text = cells[at]?.text.replace(/\s+/g, ' ').trim() ?? ''
        const idCell = cells.slice(0, at).find((cell) => cell.text.trim().length <= 20)
        const ref = idCell?.text.trim() ? (normaliseId(idCell.text) ?? idCell.text.trim()) : null
        document.add(`${tableIndex}\u001f${ref ?? text.toLowerCase()}`, {
          ref,
          text,
          section: null,
          target:
            at + 1 < cells.length
              ? { type: 'docx_cell', table: tableIndex, row, cell: at + 1, comment: null }
              : null,
        })
      })
    })
  }
  // numbered questions in the text
  let item = 0
  layout.paragraphs.forEach((paragraph, index) => {
    const match = NUMBERED.exec(paragraph.text.trim())
    // typed numbers ('3. Do you...'), or Word's own list numbering, which the text does not carry
    if (paragraph.listed) item += 1
    const listedQuestion = !match && paragraph.listed && looksLikeQuestion(paragraph.text)
    if (!listedQuestion && (!match || !looksLikeQuestion(match[2] as string))) return
    const ref = listedQuestion ? String(item) : (match?.[1] as string)
    const text = listedQuestion ? paragraph.text.trim() : (match?.[2] ?? '').trim()
    document.add(`p\u001f${ref}\u001f${text.toLowerCase()}`, {
      ref,
      text,
      section: null,
      target: { type: 'docx_paragraph', paragraph: index },
    })
  })
  return document.tabs()
}

const NUMBERED =
  /^((?:\d{1,3}(?:\.\d{1,3}){0,3}|[A-Z]{1,6}-\d{1,3}(?:\.\d{1,3})?|Q\d{1,4}))[.):]?\s+(.{8,})$/

async function pdfTabs(buffer: Buffer, name: string, limits: ParseLimits): Promise<AnalysedTab[]> {
  const parsed = await parseBuffer(buffer, name, 'pdf', limits, () => {})
  const text = parsed.passages.map((passage) => passage.text).join('\n')
  const document = documentTab(baseName(name))
  // lines (joined while a sentence runs on) that read as questions and end with '?'
  const lines = text.split('\n').map((line) => line.replace(/\s+/g, ' ').trim())
  let pending = ''
  for (const line of lines) {
    const candidate = pending ? `${pending} ${line}` : line
    if (!candidate.endsWith('?')) {
      // a question may wrap over a few lines
      pending = candidate.length < 300 && /^[\p{Lu}\d(]/u.test(candidate) ? candidate : ''
      if (!/^[\p{Lu}\d(]/u.test(line)) pending = ''
      else if (!pending) pending = line.length < 300 ? line : ''
      continue
    }
    pending = ''
    const numbered = NUMBERED.exec(candidate)
    const ref = numbered ? (normaliseId(numbered[1] as string) ?? (numbered[1] as string)) : null
    const questionText = (numbered ? (numbered[2] as string) : candidate).trim()
    if (questionText.length > 400 || !looksLikeQuestion(questionText)) continue
    document.add(`${ref ?? ''}\u001f${questionText.toLowerCase()}`, {
      ref,
      text: questionText,
      section: null,
      target: null,
    })
  }
  return document.tabs()
}

export async function readQuestionnaireBuffer(
  buffer: Buffer,
  name: string,
  kind: QuestionnaireFileKind,
  overrides: Record<string, TabMapping>,
  limits: ParseLimits,
): Promise<QuestionnaireReadResult> {
  switch (kind) {
    case 'xlsx': {
      checkZip(buffer, limits)
      let sheets: ReturnType<typeof readWorkbook>['sheets']
      try {
        sheets = readWorkbook(buffer, { fillMerged: true }).sheets
      } catch (error) {
        if (error instanceof ParseError) throw error
        throw new ParseError('The file is damaged or not a valid Excel workbook')
      }
      return {
        tabs: analyseSheets(
          sheets.filter((sheet) => !sheet.hidden),
          overrides,
        ),
      }
    }
    case 'csv': {
      const { rows } = csvTable(buffer)
      return { tabs: analyseSheets([{ name: baseName(name), rows }], overrides) }
    }
    case 'docx': {
      checkZip(buffer, limits)
      try {
        return { tabs: docxTabs(buffer, name) }
      } catch (error) {
        if (error instanceof ParseError) throw error
        throw new ParseError('The file is damaged or not a valid Word document')
      }
    }
    case 'pdf':
      return { tabs: await pdfTabs(buffer, name, limits) }
  }
}

export async function readQuestionnaireDirect(
  filePath: string,
  name: string,
  kind: QuestionnaireFileKind,
  overrides: Record<string, TabMapping>,
  limits: ParseLimits,
) {
  return readQuestionnaireBuffer(await readFile(filePath), name, kind, overrides, limits)
}
