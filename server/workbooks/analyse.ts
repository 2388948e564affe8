import type { MappingState, TabMapping } from '../../contract/questionnaires.ts'
import { columnLetters } from './cells.ts'
import { type ExistingAnswer, existingAnswers } from './existing.ts'
import {
  dedupeKey,
  type ExtractedQuestion,
  extractQuestions,
  isNumbering,
  looksLikeQuestion,
  normaliseId,
  splitLeadingId,
} from './extract.ts'
import { ANSWER_HEADER, commentColumn, findHeader, headerAbove, headerColumns } from './headers.ts'
import { type Candidate, headingOf, headingRows, sectionsByRow } from './headings.ts'
import { clean, isText, type SheetInput, validationAt } from './sheet.ts'

/**
 * Analysis of a questionnaire's tabs: which rows are questions, and where each answer, dropdown
 * value and comment goes. Sheets with question IDs use the ID extractor; sheets without IDs are
 * read from their header row (Question / Answer / Comments...). A mapping the user confirmed
 * replaces detection for its tab. Detection that is not sure marks the tab 'unsure'.
 */

/** Where an answer is written back. Rows are 1-based, columns 0-based. */
export type AnswerTarget =
  | {
      type: 'cell'
      sheet: string
      row: number
      /** The answer cell (a dropdown value when the cell has a vocabulary), or null. */
      column: number | null
      /** Answers given by marking one of several columns. */
      marks: { column: number; label: string }[] | null
      /** Where the narrative goes when the answer cell takes a dropdown value, or the comment. */
      comment: number | null
    }
  | { type: 'docx_cell'; table: number; row: number; cell: number; comment: number | null }
  | { type: 'docx_paragraph'; paragraph: number }

export interface AnalysedQuestion {
  ref: string | null
  text: string
  section: string | null
  target: AnswerTarget | null
  vocabulary: string[] | null
  matchKey: string
  /** What the file holds already in the question's cells (issue 39); absent or null: nothing. */
  existing?: ExistingAnswer | null
}

export interface AnalysedTab {
  name: string
  mapping: TabMapping | null
  mappingState: MappingState
  headers: string[]
  preview: string[][]
  questions: AnalysedQuestion[]
}

export type { SheetInput } from './sheet.ts'

const PREVIEW_ROWS = 12
const PREVIEW_COLUMNS = 12

function previewOf(rows: string[][], headerRow: number) {
  const start = Math.max(0, headerRow - 3)
  return rows
    .slice(start, start + PREVIEW_ROWS)
    .map((row) => row.slice(0, PREVIEW_COLUMNS).map((cell) => clean(cell).slice(0, 80)))
}

function headersOf(rows: string[][], headerRow: number) {
  const header = headerRow > 0 ? (rows[headerRow - 1] ?? []) : []
  const width = Math.min(
    60,
    Math.max(header.length, ...rows.slice(0, 50).map((row) => row.length), 1),
  )
  return Array.from({ length: width }, (_, column) => {
    const label = clean(header[column]).slice(0, 60)
    return label ? `${columnLetters(column)}: ${label}` : columnLetters(column)
  })
}

/** Reads questions from a tab with a known mapping (the user's, or one detected from headers). */
function questionsFromMapping(
  sheet: SheetInput,
  mapping: TabMapping,
  seen: Set<string>,
): AnalysedQuestion[] {
  const columns = {
    id: mapping.id_column,
    question: mapping.question_column,
    answer: mapping.answer_column,
    comment: mapping.comment_column,
  }
  const candidates = new Map<number, Candidate>()
  for (let index = mapping.header_row; index < sheet.rows.length; index++) {
    const row = sheet.rows[index] ?? []
    const text = clean(row[mapping.question_column])
    // fields may be a word or two ('Date', 'Title')
    if (!isText(text) || text.length < 4) continue
    const id = mapping.id_column !== null ? clean(row[mapping.id_column]) : ''
    candidates.set(index, { index, id: id || null, text })
  }
  const headings = headingRows(
    sheet,
    columns,
    [...candidates.values()],
    sheet.rows[mapping.header_row - 1],
  )
  const questions: AnalysedQuestion[] = []
  let section: string | null = null
  for (let index = mapping.header_row; index < sheet.rows.length; index++) {
    const row = sheet.rows[index] ?? []
    if (mapping.section_column !== null && clean(row[mapping.section_column])) {
      section = clean(row[mapping.section_column]).slice(0, 300)
    }
    const candidate = candidates.get(index)
    if (!candidate || headings.has(index)) {
      const heading = candidate?.text ?? headingOf(row, mapping.question_column)
      if (heading) section = heading.slice(0, 300)
      continue
    }
    const text = candidate.text
    const rawRef = candidate.id ?? ''
    // no ID cell: the number the question starts with ('1.2 Do you...?')
    const leading = rawRef ? null : splitLeadingId(text)
    const ref = rawRef ? (normaliseId(rawRef) ?? rawRef.slice(0, 60)) : (leading?.id ?? null)
    const key = `${sheet.name}\u001f${ref ?? text.toLowerCase()}`
    // an ID counts once in a workbook (analyst copies of the vendor tab repeat them)
    const dedupe = ref && normaliseId(ref) ? dedupeKey(ref, text) : key
    if (seen.has(dedupe)) continue
    seen.add(dedupe)
    questions.push({
      ref,
      text: leading ? leading.text : text,
      section,
      vocabulary:
        mapping.answer_column !== null
          ? validationAt(sheet.validations, index, mapping.answer_column)
          : null,
      target: {
        type: 'cell',
        sheet: sheet.name,
        row: index + 1,
        column: mapping.answer_column,
        marks: null,
        comment: mapping.comment_column,
      },
      matchKey: key,
    })
  }
  return questions
}

/** A tab read by its question IDs (extract.ts), its section headings set apart. */
function idTab(sheet: SheetInput, found: ExtractedQuestion[], seen: Set<string>): AnalysedTab {
  const first = found[0] as ExtractedQuestion
  const headerRow = headerAbove(sheet.rows, first.row)
  const header = headerRow ? (sheet.rows[headerRow - 1] ?? []) : []
  const answerColumns = found.flatMap((q) => (q.answerColumn === null ? [] : [q.answerColumn]))
  const answerColumn = mostCommon(answerColumns)
  const anchor = Math.max(
    first.questionColumn,
    answerColumn ?? -1,
    ...(first.markColumns?.map((mark) => mark.column) ?? []),
  )
  const comment = commentColumn(header, first.questionColumn, anchor)
  const mapping: TabMapping = {
    header_row: headerRow,
    id_column: first.idColumn,
    question_column: first.questionColumn,
    answer_column: answerColumn ?? first.markColumns?.[0]?.column ?? null,
    comment_column: comment,
    section_column: null,
  }
  // a numbered row that is a section's heading ('G.2 Change Control' above 'G.2.1')
  const headings = headingRows(
    sheet,
    { id: first.idColumn, question: first.questionColumn, answer: mapping.answer_column, comment },
    found.map((q) => ({ index: q.row - 1, id: q.id, text: q.text })),
    header,
  )
  const questions = found.filter((q) => !headings.has(q.row - 1))
  const sections = sectionsByRow(
    sheet,
    first.questionColumn,
    headerRow,
    new Set(questions.map((q) => q.row - 1)),
    new Map(
      [...headings].map((index) => [index, clean(sheet.rows[index]?.[first.questionColumn])]),
    ),
  )
  return {
    name: sheet.name,
    mapping,
    mappingState:
      questions.filter((q) => q.answerColumn !== null || q.markColumns).length >=
        questions.length * 0.8 ||
      (answerColumn !== null && ANSWER_HEADER.test(header[answerColumn] ?? ''))
        ? 'detected'
        : 'unsure',
    headers: headersOf(sheet.rows, headerRow),
    preview: previewOf(sheet.rows, headerRow),
    questions: questions.map((q) => {
      seen.add(dedupeKey(q.id, q.text))
      return {
        ref: q.id,
        text: clean(q.text),
        section: sections.get(q.row - 1) ?? null,
        vocabulary: q.vocabulary,
        target: {
          type: 'cell' as const,
          sheet: sheet.name,
          row: q.row,
          // a free-text answer without a list of its own goes in the tab's answer column
          column: q.answerColumn ?? (q.markColumns ? null : answerColumn),
          marks: q.markColumns,
          comment,
        },
        matchKey: `${sheet.name}\u001f${q.id}`,
      }
    }),
  }
}

/** A tab without question IDs, read from its header row; null when it has none. */
function headerTab(sheet: SheetInput, seen: Set<string>, withIds: boolean): AnalysedTab | null {
  const header = findHeader(sheet)
  if (!header) return null
  const columns = headerColumns(sheet, header.index, header.question)
  const mapping: TabMapping = {
    header_row: header.index + 1,
    id_column: columns.id,
    question_column: header.question,
    answer_column: columns.answer ?? columns.comment,
    comment_column: columns.answer === null ? null : columns.comment,
    section_column: columns.section,
  }
  const questions = questionsFromMapping(sheet, mapping, seen)
  const questionLike = questions.filter((q) => looksLikeQuestion(q.text)).length
  // a header that names its question column and has an answer column is sure of its rows, put
  // as questions or not (fields, requirements stated, documents requested)
  const sure =
    questions.length > 0 &&
    mapping.answer_column !== null &&
    ((header.named && columns.answerNamed) ||
      questionLike >= questions.length * (withIds ? 0.5 : 0.3))
  // a header found by its answer column alone reads rows put as questions, else asks for a mapping
  if (!header.named && !sure) return null
  if (withIds && !sure) {
    // a workbook whose questionnaire tabs carry IDs: other tabs are references and reports
    return {
      name: sheet.name,
      mapping: null,
      mappingState: 'detected',
      headers: headersOf(sheet.rows, 0),
      preview: previewOf(sheet.rows, 0),
      questions: [],
    }
  }
  return {
    name: sheet.name,
    mapping,
    mappingState: sure ? 'detected' : 'unsure',
    headers: headersOf(sheet.rows, mapping.header_row),
    preview: previewOf(sheet.rows, mapping.header_row),
    questions,
  }
}

export function analyseSheets(
  sheets: SheetInput[],
  overrides: Record<string, TabMapping> = {},
): AnalysedTab[] {
  const byId = extractQuestions(sheets.filter((sheet) => !overrides[sheet.name]))
  const seen = new Set<string>()
  const withIds = byId.length > 0
  const known = new Set(byId.map((question) => question.id))
  const tabs: AnalysedTab[] = []
  for (const sheet of sheets) {
    const override = overrides[sheet.name]
    if (override) {
      tabs.push({
        name: sheet.name,
        mapping: override,
        mappingState: 'confirmed',
        headers: headersOf(sheet.rows, override.header_row),
        preview: previewOf(sheet.rows, override.header_row),
        questions: questionsFromMapping(sheet, override, seen),
      })
      continue
    }
    const found = byId.filter((question) => question.sheet === sheet.name)
    if (found.length) {
      tabs.push(idTab(sheet, found, seen))
      continue
    }
    // no IDs: read the header row, unless the tab repeats IDs read on another (a report, a copy)
    const tab = repeatsIds(sheet, known) ? null : headerTab(sheet, seen, withIds)
    if (tab) {
      tabs.push(tab)
      continue
    }
    // nothing found: a tab without questions (instructions, lists), or a layout to map by hand
    const questionLike = sheet.rows.filter((row) => row.some((cell) => looksLikeQuestion(cell)))
    tabs.push({
      name: sheet.name,
      mapping: null,
      mappingState: questionLike.length >= 3 && !withIds ? 'unsure' : 'detected',
      headers: headersOf(sheet.rows, 0),
      preview: previewOf(sheet.rows, 0),
      questions: [],
    })
  }
  // the answers the file arrived with, kept as the starting point (issue 39)
  for (const tab of tabs) {
    const sheet = sheets.find((candidate) => candidate.name === tab.name)
    if (!sheet || !tab.questions.length) continue
    const existing = existingAnswers(sheet, tab.questions)
    tab.questions.forEach((question, index) => {
      const answer = existing[index]
      if (answer) question.existing = answer
    })
  }
  // a questionnaire in which nothing was found asks for every tab to be mapped
  if (!tabs.some((tab) => tab.questions.length)) {
    for (const tab of tabs) if (tab.mappingState !== 'confirmed') tab.mappingState = 'unsure'
  }
  return tabs
}

/**
 * Whether a tab's cells hold question IDs (not numbering only) of which at least half were read
 * on another tab: analysts' reports, references and crosswalks that repeat the questions.
 */
function repeatsIds(sheet: SheetInput, known: Set<string>) {
  if (!known.size) return false
  const ids = new Set(
    sheet.rows.flatMap((row) =>
      row.flatMap((cell) => {
        const id = cell ? normaliseId(cell) : null
        return id && !isNumbering(id) ? [id] : []
      }),
    ),
  )
  const repeated = [...ids].filter((id) => known.has(id)).length
  return ids.size >= 3 && repeated >= ids.size * 0.5
}

function mostCommon(values: number[]): number | null {
  const counts = new Map<number, number>()
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1)
  let best: number | null = null
  let bestCount = 0
  for (const [value, count] of counts) {
    if (count > bestCount) {
      best = value
      bestCount = count
    }
  }
  return best
}
