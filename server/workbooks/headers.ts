import { clean, distinctTexts, listedAt, nonEmpty, type SheetInput } from './sheet.ts'

/**
 * The header row of a tab and what its columns hold (question, answer, comment, ID, section).
 * Every tab is read on its own: forms lay out each tab their own way, and put the header under
 * banners, titles and instructions.
 */

export const QUESTION_HEADER =
  /\b(questions?|requests?|requested|information requested|fields?|requirements?|control (text|question|description|statement)|query|queries|criteria|item description|consensus assessment question)\b/i
export const ANSWER_HEADER =
  /\b(answers?|responses?|reply|yes\s*\/\s*no|compliant|compliance|status|vendor (answer|response)|your answer)\b/i
export const COMMENT_HEADER =
  /\b(comments?|explanations?|notes?|additional (info|information|details|comments)|justification|details?|description|evidence|remarks?|rationale|clarification|elaboration)\b/i
/** A column of question numbers: 'ID', '#', 'Question #', 'Ques Num', 'Ref', 'Item', 'Serial No'. */
export const ID_HEADER =
  /^(#|no\.?|nr\.?|id|ref\.?|reference|number|item|s\.?\s?no\.?|sr\.?\s?no\.?|serial(\s*(#|no\.?|num\.?|number))?|(question|ques|q|control|requirement|request|item|ref|reference|doc(ument)?)\.?\s*(id|#|no\.?|nr\.?|num\.?|number|ref\.?)|q\s*#?)$/i
const SECTION_HEADER = /\b(section|domain|category|area|topic|group)\b/i

const HEADER_WORDS = [QUESTION_HEADER, ANSWER_HEADER, COMMENT_HEADER, ID_HEADER, SECTION_HEADER]
const short = (cell: string | undefined) => clean(cell).length > 0 && clean(cell).length <= 80
const names = (cell: string | undefined, pattern: RegExp) =>
  short(cell) && pattern.test(clean(cell))
/** Whether a cell reads as a column's label ('ID', 'Question', 'Vendor Answers'). */
export const namesColumn = (cell: string | undefined) =>
  HEADER_WORDS.some((pattern) => names(cell, pattern))
/** Whether a cell reads as the label of an answer or comment column ('Vendor Answers', 'Notes'). */
export const namesAnswerColumn = (cell: string | undefined) =>
  names(cell, ANSWER_HEADER) || names(cell, COMMENT_HEADER)
const isIdHeader = (cell: string | undefined) => names(cell, ID_HEADER)

export interface Header {
  /** 0-based row of the header. */
  index: number
  question: number
  /** Whether the header names its question column (else it was found by its answer column). */
  named: boolean
}

/** The column right of `from` whose cells below the header offer a list on most text rows. */
function listedColumn(sheet: SheetInput, header: number, question: number) {
  const rows = sheet.rows
    .slice(header + 1, header + 301)
    .map((row, offset) => ({ row, index: header + 1 + offset }))
    .filter(({ row }) => clean(row[question]).length >= 3)
  if (!rows.length || !sheet.validations?.length) return null
  const width = Math.max(...rows.map(({ row }) => row.length), question + 2)
  for (let column = question + 1; column < Math.min(width + 1, question + 8); column++) {
    const listed = rows.filter(({ index }) => listedAt(sheet, index, column)).length
    if (listed >= Math.max(2, rows.length * 0.5)) return column
  }
  return null
}

/**
 * The header row: among the first 30 rows, one of at least two different texts that names the
 * question column ('Question', 'Question/Request', 'Requirement', 'Document Request'; an ID
 * column named 'Question #' is not it), the first that also names or has an answer column; else
 * a row of short labels that names only an answer column, with the question column the one of
 * long texts left of it.
 */
export function findHeader(sheet: SheetInput): Header | null {
  let fallback: Header | null = null
  const limit = Math.min(sheet.rows.length, 30)
  for (let index = 0; index < limit; index++) {
    const row = sheet.rows[index] ?? []
    // a banner or an instruction merged across the page is one text however many cells it fills
    if (distinctTexts(row).length < 2) continue
    const question = row.findIndex((cell) => names(cell, QUESTION_HEADER) && !isIdHeader(cell))
    if (question < 0) continue
    const answered =
      row.some((cell, column) => column > question && names(cell, ANSWER_HEADER)) ||
      row.some((cell, column) => column > question && names(cell, COMMENT_HEADER)) ||
      listedColumn(sheet, index, question) !== null
    if (answered) return { index, question, named: true }
    fallback ??= { index, question, named: true }
  }
  if (fallback) return fallback
  for (let index = 0; index < limit; index++) {
    const row = sheet.rows[index] ?? []
    const labels = distinctTexts(row)
    if (labels.length < 3 || labels.some((label) => label.length > 60)) continue
    const answer = row.findIndex(
      (cell, column) =>
        column > 0 && names(cell, ANSWER_HEADER) && clean(cell).split(' ').length <= 4,
    )
    if (answer < 0) continue
    let best = -1
    let bestCount = 2
    for (let column = 0; column < answer; column++) {
      if (isIdHeader(row[column])) continue
      const long = sheet.rows
        .slice(index + 1, index + 41)
        .filter((below) => clean(below[column]).length >= 20).length
      if (long > bestCount) {
        best = column
        bestCount = long
      }
    }
    if (best >= 0) return { index, question: best, named: false }
  }
  return null
}

/**
 * The columns of a header row around its question column: the answer column (named, the one with
 * a list when several are named, else the one with lists), the comment column (named as one, or
 * a second column named as an answer: 'Yes/No/N/A' then 'Vendor Response'), the ID column (the
 * nearest left of the question: 'Ques Num' over a serial number) and a section column.
 */
export function headerColumns(sheet: SheetInput, headerIndex: number, question: number) {
  const header = sheet.rows[headerIndex] ?? []
  const right = (pattern: RegExp, skip: (number | null)[] = []) =>
    header.flatMap((cell, column) =>
      column > question && names(cell, pattern) && !skip.includes(column) ? [column] : [],
    )
  const named = right(ANSWER_HEADER)
  const listed = listedColumn(sheet, headerIndex, question)
  const answer = (listed !== null && named.includes(listed) ? listed : named[0]) ?? listed ?? null
  const comment =
    right(COMMENT_HEADER, [answer])[0] ??
    right(ANSWER_HEADER, [answer]).find((column) => answer === null || column > answer) ??
    null
  let id: number | null = null
  let section: number | null = null
  for (let column = 0; column < question; column++) {
    const cell = clean(header[column])
    if (ID_HEADER.test(cell)) id = column
    else if (section === null && SECTION_HEADER.test(cell)) section = column
  }
  // whether the answer column is one: named so, or offering a list (not a comment column standing in)
  const answerNamed = answer !== null
  return { answer, comment, id, section, answerNamed }
}

/**
 * The header row above a tab's first numbered question (1-based, 0 when none): the nearest of
 * the eight rows above with at least two different texts, two of which name columns; else the
 * nearest with two filled cells.
 */
export function headerAbove(rows: string[][], firstRow: number) {
  const from = firstRow - 2
  const to = Math.max(0, firstRow - 9)
  for (let r = from; r >= to; r--) {
    const texts = distinctTexts(rows[r])
    const named = texts.filter(namesColumn)
    if (texts.length >= 2 && named.length >= 2) return r + 1
  }
  for (let r = from; r >= to; r--) if (nonEmpty(rows[r]).length >= 2) return r + 1
  return 0
}

/**
 * The comment column of a tab read by its question numbers: named so, right of the answer first,
 * then between the question and the answer ('Comments' before 'Answer').
 */
export function commentColumn(header: string[], question: number, anchor: number) {
  const at = (from: number, to: number) => {
    for (let column = from; column < to; column++)
      if (names(header[column], COMMENT_HEADER)) return column
    return null
  }
  return at(anchor + 1, header.length) ?? at(question + 1, anchor)
}
