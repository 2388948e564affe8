import type { TableSheet } from '../ingest/types.ts'
import { inSqref, type ListValidation } from '../ingest/xlsx.ts'

/**
 * Finds the questions of a questionnaire in its sheets: per sheet, the column that holds question
 * IDs (AIS-01.1, HLAD-03, A&A-02.1...) and the column that holds the question text; a sheet whose
 * rows do not read as questions (instructions, change logs) is not a questionnaire tab. The same ID
 * on several tabs (analyst copies of the vendor tab) counts once, at its first place.
 */

export interface ExtractedQuestion {
  /** Normalised: spaces and critical-question markers removed. */
  id: string
  text: string
  sheet: string
  /** 1-based. */
  row: number
  /** 0-based columns of the ID and the question text. */
  idColumn: number
  questionColumn: number
  /** Where the answer goes, when found: a cell with a list validation, or the Answer column. */
  answerColumn: number | null
  /** The answer's allowed values (from the cell's list validation). */
  vocabulary: string[] | null
  /** Answers given by marking one of several columns (CAIQ v3: an 'x' under Yes / No / Not Applicable). */
  markColumns: { column: number; label: string }[] | null
}

type SheetInput = TableSheet & { validations?: ListValidation[] }

const ANSWER_HEADER = /\b(answer|response|reply)s?\b/i
const MARK_LABEL = /^(yes|no|n\/?a|not applicable)$/i

/** Headers just above the first question: an Answer column, or Yes/No/N/A mark columns. */
function headerHints(sheet: SheetInput, firstRow: number, questionColumn: number) {
  let answerColumn: number | null = null
  let marks: { column: number; label: string }[] | null = null
  for (let r = Math.max(0, firstRow - 5); r < firstRow; r++) {
    const row = sheet.rows[r] ?? []
    const found = row.flatMap((cell, column) =>
      column > questionColumn && MARK_LABEL.test(cell.trim())
        ? [{ column, label: cell.trim() }]
        : [],
    )
    if (found.length >= 2) marks = found
    if (answerColumn === null) {
      const column = row.findIndex(
        (cell, c) => c > questionColumn && ANSWER_HEADER.test(cell) && cell.length <= 60,
      )
      if (column >= 0) answerColumn = column
    }
  }
  return { answerColumn, marks }
}

/** CAIQ and HECVAT: 'AIS-01.1', 'A&A-02', 'HLAD-03 *'. */
const ID = /^([A-Z][A-Z&]{0,9}) ?- ?(\d{1,3}(?:\.\d{1,3})?)\s*\*?$/
/** SIG and many custom questionnaires: 'A.1.1', 'A.1.1.1', 'SL.12', '1.2', '4.1.3.' (at least one dot). */
const DOTTED = /^((?:[A-Z]{1,4}|\d{1,3})(?:\.\d{1,3}){1,4})\.?$/
/** A question that starts with its number: '1.2 Do you...', 'A.1.1 Is...', 'Q12. Are...', 'AIS-01.1: Are...'. */
const LEADING_ID =
  /^(?:Q\s?)?((?:[A-Z][A-Z&]{0,9} ?- ?\d{1,3}(?:\.\d{1,3})?)|(?:(?:[A-Z]{1,4}|\d{1,3})(?:\.\d{1,3}){1,4})|\d{1,3})[.):]?\s+(?=\p{L})/u
const QUESTION_START =
  /^(\(.*?\)\s*)?(do|does|did|is|are|was|were|have|has|had|can|could|will|would|should|shall|may|must|describe|explain|provide|list|please|how|what|which|who|when|where|why|indicate|identify|state|specify|confirm|attach|upload|submit|send|furnish|outline|summari[sz]e|include|share|use this area)\b/i

export const normaliseId = (cell: string) => {
  const trimmed = cell.trim()
  const match = ID.exec(trimmed)
  if (match) return `${match[1]}-${match[2]}`
  const dotted = DOTTED.exec(trimmed)
  return dotted ? (dotted[1] as string) : null
}

/** Whether an ID is numbering only ('1.2'): such IDs restart on each tab. */
export const isNumbering = (id: string) => /^\d/.test(id)

/**
 * What makes a question the same one on another tab: its ID (an analyst's copy of the vendor tab
 * repeats it), or for numbering only ('1.2') its number and its text.
 */
export const dedupeKey = (id: string, text: string) =>
  isNumbering(id) ? `${id}\u001f${text.trim().toLowerCase()}` : id

/**
 * A question cell that starts with the question's number ('1.2 Do you encrypt...?'): the number
 * (normalised) and the question without it; null when the cell does not start with one.
 */
export function splitLeadingId(cell: string): { id: string; text: string } | null {
  const trimmed = cell.trim()
  const match = LEADING_ID.exec(trimmed)
  if (!match) return null
  const raw = match[1] as string
  const id = normaliseId(raw) ?? (/^\d{1,3}$/.test(raw) ? raw : null)
  const text = trimmed.slice(match[0].length).trim()
  return id && looksLikeQuestion(text) ? { id, text } : null
}

export const looksLikeQuestion = (text: string) => {
  const trimmed = text.trim()
  return (
    trimmed.length >= 8 &&
    /\p{L}/u.test(trimmed) &&
    (trimmed.endsWith('?') || QUESTION_START.test(trimmed))
  )
}

const isText = (cell: string | undefined) =>
  Boolean(cell && cell.trim().length >= 3 && /\p{L}{2}/u.test(cell) && !normaliseId(cell))

export function extractQuestions(sheets: SheetInput[]): ExtractedQuestion[] {
  const found: ExtractedQuestion[] = []
  const seen = new Set<string>()
  for (const sheet of sheets) {
    // the ID column: the one with the most distinct IDs
    const idCounts = new Map<number, Set<string>>()
    for (const row of sheet.rows) {
      row.forEach((cell, column) => {
        const id = cell ? normaliseId(cell) : null
        // a column of numbering only ('1.1', '1.2') is read from its header row instead, which
        // also keeps its numbered section headings ('3 | Data protection')
        if (!id || isNumbering(id)) return
        let ids = idCounts.get(column)
        if (!ids) {
          ids = new Set()
          idCounts.set(column, ids)
        }
        ids.add(id)
      })
    }
    let idColumn = [...idCounts.entries()].sort((a, b) => b[1].size - a[1].size)[0]?.[0]
    // no ID column: a column whose questions start with their numbers ('1.2 Do you...?')
    let embedded = false
    if (idColumn === undefined || (idCounts.get(idColumn)?.size ?? 0) < 3) {
      idColumn = embeddedIdColumn(sheet)
      if (idColumn === undefined) continue
      embedded = true
    }
    const column = idColumn
    const idOf = (row: string[]) =>
      embedded
        ? (splitLeadingId(row[column] ?? '')?.id ?? null)
        : row[column]
          ? normaliseId(row[column] as string)
          : null
    const idRows = sheet.rows.map((row, index) => ({ row, index })).filter(({ row }) => idOf(row))
    // the question column: to the right of the IDs, where question-like texts are most frequent
    const width = Math.max(...idRows.map(({ row }) => row.length))
    let questionColumn = embedded ? idColumn : -1
    let bestScore = 0
    for (let column = idColumn + 1; !embedded && column < Math.min(width, idColumn + 6); column++) {
      let questions = 0
      let texts = 0
      for (const { row } of idRows) {
        const cell = row[column]
        if (!isText(cell)) continue
        texts += 1
        if (looksLikeQuestion(cell as string)) questions += 1
      }
      const score = questions * 10 + texts
      if (score > bestScore) {
        bestScore = score
        questionColumn = column
      }
    }
    if (questionColumn < 0) continue
    const textOf = (row: string[]) =>
      embedded
        ? (splitLeadingId(row[questionColumn] ?? '')?.text ?? '')
        : (row[questionColumn]?.trim() ?? '')
    const questionLike = idRows.filter(({ row }) => looksLikeQuestion(textOf(row))).length
    // instructions, change logs and lookup lists carry IDs too, but not questions
    if (questionLike < Math.max(3, idRows.length * 0.3)) continue
    const hints = headerHints(sheet, idRows[0]?.index ?? 0, questionColumn)
    const validations = sheet.validations ?? []
    for (const { row, index } of idRows) {
      const id = idOf(row) as string
      const text = textOf(row)
      // the same ID on another tab is an analyst's copy, unless it is numbering only: '1.2' of
      // another tab is another question unless its text is the same
      const key = dedupeKey(id, text)
      if (!isText(text) || seen.has(key)) continue
      seen.add(key)
      // the answer cell: the first cell right of the question with a list to choose from
      let answerColumn: number | null = null
      let vocabulary: string[] | null = null
      for (
        let column = questionColumn + 1;
        column <= questionColumn + 6 && answerColumn === null;
        column++
      ) {
        const validation = validations.find((v) => inSqref(v.sqref, index, column))
        if (validation) {
          answerColumn = column
          vocabulary = validation.values
        }
      }
      found.push({
        id,
        text,
        sheet: sheet.name,
        row: index + 1,
        idColumn,
        questionColumn,
        answerColumn: answerColumn ?? (hints.marks ? null : hints.answerColumn),
        vocabulary,
        markColumns: answerColumn === null ? hints.marks : null,
      })
    }
  }
  return found
}

/** The column whose cells most often start with a question's number and read as questions (three at least). */
function embeddedIdColumn(sheet: SheetInput): number | undefined {
  const counts = new Map<number, Set<string>>()
  for (const row of sheet.rows)
    row.forEach((cell, column) => {
      const split = cell ? splitLeadingId(cell) : null
      if (!split) return
      const ids = counts.get(column) ?? new Set()
      ids.add(split.id)
      counts.set(column, ids)
    })
  const [best] = [...counts.entries()].sort((a, b) => b[1].size - a[1].size)
  return best && best[1].size >= 3 ? best[0] : undefined
}
