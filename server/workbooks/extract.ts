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

const ID = /^([A-Z][A-Z&]{0,9}) ?- ?(\d{1,3}(?:\.\d{1,3})?)\s*\*?$/
const QUESTION_START =
  /^(\(.*?\)\s*)?(do|does|did|is|are|was|were|have|has|had|can|could|will|would|should|shall|may|must|describe|explain|provide|list|please|how|what|which|who|when|where|why|indicate|identify|state|specify|confirm|attach|include|share|use this area)\b/i

export const normaliseId = (cell: string) => {
  const match = ID.exec(cell.trim())
  return match ? `${match[1]}-${match[2]}` : null
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
        if (!id) return
        let ids = idCounts.get(column)
        if (!ids) {
          ids = new Set()
          idCounts.set(column, ids)
        }
        ids.add(id)
      })
    }
    const idColumn = [...idCounts.entries()].sort((a, b) => b[1].size - a[1].size)[0]?.[0]
    if (idColumn === undefined || (idCounts.get(idColumn)?.size ?? 0) < 3) continue
    const idRows = sheet.rows
      .map((row, index) => ({ row, index }))
      .filter(({ row }) => row[idColumn] && normaliseId(row[idColumn] as string))
    // the question column: to the right of the IDs, where question-like texts are most frequent
    const width = Math.max(...idRows.map(({ row }) => row.length))
    let questionColumn = -1
    let bestScore = 0
    for (let column = idColumn + 1; column < Math.min(width, idColumn + 6); column++) {
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
    const questionLike = idRows.filter(({ row }) =>
      looksLikeQuestion(row[questionColumn] ?? ''),
    ).length
    // instructions, change logs and lookup lists carry IDs too, but not questions
    if (questionLike < Math.max(3, idRows.length * 0.3)) continue
    const hints = headerHints(sheet, idRows[0]?.index ?? 0, questionColumn)
    const validations = sheet.validations ?? []
    for (const { row, index } of idRows) {
      const id = normaliseId(row[idColumn] as string) as string
      const text = row[questionColumn]?.trim() ?? ''
      if (!isText(text) || seen.has(id)) continue
      seen.add(id)
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
