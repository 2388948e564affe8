import type { MappingState, TabMapping } from '../../contract/questionnaires.ts'
import { inSqref, type ListValidation } from '../ingest/xlsx.ts'
import { columnLetters } from './cells.ts'
import {
  dedupeKey,
  extractQuestions,
  looksLikeQuestion,
  normaliseId,
  splitLeadingId,
} from './extract.ts'

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
}

export interface AnalysedTab {
  name: string
  mapping: TabMapping | null
  mappingState: MappingState
  headers: string[]
  preview: string[][]
  questions: AnalysedQuestion[]
}

export interface SheetInput {
  name: string
  rows: string[][]
  validations?: ListValidation[]
}

const QUESTION_HEADER =
  /\b(questions?|requirements?|control (text|question|description)|query|criteria|item description|consensus assessment question)\b/i
const ANSWER_HEADER =
  /\b(answers?|responses?|reply|yes\s*\/\s*no|compliant|compliance|status|vendor (answer|response)|your answer)\b/i
const COMMENT_HEADER =
  /\b(comments?|explanations?|notes?|additional (info|information|details|comments)|justification|details|description|evidence|remarks?)\b/i
const ID_HEADER =
  /^(#|no\.?|nr\.?|id|ref\.?|reference|number|item|question\s*(id|#|no\.?|number)|control\s*(id|#)|q\s*#?)$/i
const SECTION_HEADER = /\b(section|domain|category|area|topic|group)\b/i

const clean = (text: string | undefined) => (text ?? '').replace(/\s+/g, ' ').trim()
const isText = (cell: string | undefined) =>
  Boolean(cell && cell.trim().length >= 3 && /\p{L}{2}/u.test(cell))
const nonEmpty = (row: string[] | undefined) =>
  (row ?? []).flatMap((cell, column) => (cell?.trim() ? [column] : []))

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

const validationAt = (validations: ListValidation[] | undefined, row: number, column: number) =>
  validations?.find((v) => inSqref(v.sqref, row, column) && v.values?.length)?.values ?? null

/** A header row: the first of the first 30 rows with a question header and at least two cells. */
function findHeader(rows: string[][]) {
  for (let index = 0; index < Math.min(rows.length, 30); index++) {
    const row = rows[index] ?? []
    if (nonEmpty(row).length < 2) continue
    const question = row.findIndex((cell) => cell.trim().length <= 80 && QUESTION_HEADER.test(cell))
    if (question >= 0) return { index, question }
  }
  return null
}

/** Columns of a header row, around the question column. */
function headerColumns(header: string[], question: number) {
  const find = (pattern: RegExp, from: number, skip: (number | null)[] = []) => {
    for (let column = from; column < header.length; column++) {
      const cell = header[column] ?? ''
      if (cell.trim().length <= 80 && pattern.test(cell) && !skip.includes(column)) return column
    }
    return null
  }
  const answer = find(ANSWER_HEADER, question + 1)
  const comment = find(COMMENT_HEADER, question + 1, [answer])
  let id: number | null = null
  let section: number | null = null
  for (let column = 0; column < question; column++) {
    const cell = clean(header[column])
    if (id === null && ID_HEADER.test(cell)) id = column
    else if (section === null && SECTION_HEADER.test(cell)) section = column
  }
  return { answer, comment, id, section }
}

/** Reads questions from a tab with a known mapping (the user's, or one detected from headers). */
function questionsFromMapping(
  sheet: SheetInput,
  mapping: TabMapping,
  seen: Set<string>,
): AnalysedQuestion[] {
  const questions: AnalysedQuestion[] = []
  let section: string | null = null
  for (let index = mapping.header_row; index < sheet.rows.length; index++) {
    const row = sheet.rows[index] ?? []
    const text = clean(row[mapping.question_column])
    const filled = nonEmpty(row)
    if (mapping.section_column !== null && clean(row[mapping.section_column])) {
      section = clean(row[mapping.section_column]).slice(0, 300)
    }
    if (!isText(text) || text.length < 8) {
      // a lone text in a row is a section heading
      if (filled.length === 1) {
        const heading = clean(row[filled[0] as number])
        if (isText(heading) && heading.length <= 200) section = heading
      }
      continue
    }
    if (filled.length === 1 && !looksLikeQuestion(text) && text.length <= 120) {
      section = text
      continue
    }
    // a numbered heading ('2 | Data protection') above its numbered questions ('2.1', '2.2')
    if (mapping.id_column !== null && !looksLikeQuestion(text) && text.length <= 80) {
      const id = clean(row[mapping.id_column])
      const next = sheet.rows
        .slice(index + 1, index + 4)
        .find((candidate) => clean(candidate[mapping.question_column]))
      const nextId = next ? clean(next[mapping.id_column]) : ''
      if (
        id &&
        nextId.length > id.length &&
        /^[.-]/.test(nextId.slice(id.length)) &&
        nextId.startsWith(id)
      ) {
        section = text
        continue
      }
    }
    const rawRef = mapping.id_column !== null ? clean(row[mapping.id_column]) : ''
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

/** Section headings of a sheet by row: a row whose only text sits at or left of the question column. */
function sectionsByRow(sheet: SheetInput, questionColumn: number, questionRows: Set<number>) {
  const sections = new Map<number, string>()
  let current: string | null = null
  sheet.rows.forEach((row, index) => {
    if (!questionRows.has(index)) {
      const filled = nonEmpty(row)
      if (filled.length === 1 && (filled[0] as number) <= questionColumn) {
        const heading = clean(row[filled[0] as number])
        if (isText(heading) && heading.length <= 200 && !looksLikeQuestion(heading))
          current = heading
      }
    } else if (current) sections.set(index, current)
  })
  return sections
}

export function analyseSheets(
  sheets: SheetInput[],
  overrides: Record<string, TabMapping> = {},
): AnalysedTab[] {
  const byId = extractQuestions(sheets.filter((sheet) => !overrides[sheet.name]))
  const seen = new Set<string>()
  const withIds = byId.length > 0
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
      const first = found[0] as (typeof found)[number]
      // the header: the nearest row above the first question that names the question column
      let headerRow = 0
      for (let r = first.row - 2; r >= Math.max(0, first.row - 8); r--) {
        if (nonEmpty(sheet.rows[r]).length >= 2) {
          headerRow = r + 1
          break
        }
      }
      const header = headerRow ? (sheet.rows[headerRow - 1] ?? []) : []
      const answerColumns = found.flatMap((q) => (q.answerColumn === null ? [] : [q.answerColumn]))
      const answerColumn = mostCommon(answerColumns)
      const anchor = Math.max(
        first.questionColumn,
        answerColumn ?? -1,
        ...(first.markColumns?.map((mark) => mark.column) ?? []),
      )
      let comment: number | null = null
      for (let column = anchor + 1; column < header.length; column++) {
        if (COMMENT_HEADER.test(header[column] ?? '') && (header[column] ?? '').length <= 80) {
          comment = column
          break
        }
      }
      const mapping: TabMapping = {
        header_row: headerRow,
        id_column: first.idColumn,
        question_column: first.questionColumn,
        answer_column: answerColumn ?? first.markColumns?.[0]?.column ?? null,
        comment_column: comment,
        section_column: null,
      }
      const sections = sectionsByRow(
        sheet,
        first.questionColumn,
        new Set(found.map((q) => q.row - 1)),
      )
      const located = found.filter((q) => q.answerColumn !== null || q.markColumns).length
      tabs.push({
        name: sheet.name,
        mapping,
        mappingState:
          located >= found.length * 0.8 ||
          (answerColumn !== null && ANSWER_HEADER.test(header[answerColumn] ?? ''))
            ? 'detected'
            : 'unsure',
        headers: headersOf(sheet.rows, headerRow),
        preview: previewOf(sheet.rows, headerRow),
        questions: found.map((q) => {
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
      })
      continue
    }
    // no IDs: read the header row
    const header = findHeader(sheet.rows)
    if (header) {
      const columns = headerColumns(sheet.rows[header.index] ?? [], header.question)
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
      const sure =
        questions.length > 0 &&
        mapping.answer_column !== null &&
        questionLike >= questions.length * (withIds ? 0.5 : 0.3)
      if (withIds && !sure) {
        // a workbook whose questionnaire tabs carry IDs: other tabs are references and reports
        tabs.push({
          name: sheet.name,
          mapping: null,
          mappingState: 'detected',
          headers: headersOf(sheet.rows, 0),
          preview: previewOf(sheet.rows, 0),
          questions: [],
        })
        continue
      }
      tabs.push({
        name: sheet.name,
        mapping,
        mappingState: sure ? 'detected' : 'unsure',
        headers: headersOf(sheet.rows, mapping.header_row),
        preview: previewOf(sheet.rows, mapping.header_row),
        questions,
      })
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
  // a questionnaire in which nothing was found asks for every tab to be mapped
  if (!tabs.some((tab) => tab.questions.length)) {
    for (const tab of tabs) if (tab.mappingState !== 'confirmed') tab.mappingState = 'unsure'
  }
  return tabs
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
