import type { Block } from './chunk.ts'

/**
 * Spreadsheet-like rows (XLSX sheets, CSV files): finds the header row and the question, answer,
 * dropdown and tags columns, then turns each data row into a passage. Used by ingestion and by
 * the Q&A import preview.
 */

export interface QaColumns {
  /** 1-based header row. */
  headerRow: number
  /** 0-based column indexes, or null. */
  question: number | null
  answer: number | null
  dropdown: number | null
  tags: number | null
}

const QUESTION =
  /\b(question|questions|requirement|control (text|description|specification|question)|query|criteria|assessment question|consensus assessment question)\b/i
const ANSWER =
  /\b(answer|answers|response|responses|reply|vendor answer|vendor response|your answer|supplier response|comments?|explanation|additional information|notes?|details?|implementation|justification|rationale)\b/i
const STRONG_ANSWER = /\b(answers?|responses?|repl(y|ies))\b/i
const TAGS = /\b(tags?|category|categories|domain|section|topic|area)\b/i
const HEADERISH = new RegExp(
  `${QUESTION.source}|${ANSWER.source}|${TAGS.source}|\\b(id|ref|reference|number|no\\.?|guidance|owner|ownership|status|yes/no)\\b`,
  'i',
)
const CHOICE = /^(yes|no|n\/?a|not applicable|partial(ly)?|x|true|false|y|n)$/i

const filled = (row: string[] | undefined) => (row ?? []).filter((cell) => cell.trim()).length

function headerScore(row: string[]): number {
  let score = 0
  // a banner merged across the columns ('Vendor Response' five times) counts once
  const seen = new Set<string>()
  for (const cell of row) {
    const text = cell.trim()
    if (!text || text.length > 80 || seen.has(text.toLowerCase())) continue
    seen.add(text.toLowerCase())
    if (QUESTION.test(text)) score += 3
    else if (STRONG_ANSWER.test(text)) score += 3
    else if (HEADERISH.test(text)) score += 1
  }
  return score
}

function choiceShare(rows: string[][], column: number): number {
  let values = 0
  let choices = 0
  for (const row of rows) {
    const value = row[column]?.trim()
    if (!value) continue
    values += 1
    if (CHOICE.test(value)) choices += 1
  }
  return values ? choices / values : 0
}

const averageLength = (rows: string[][], column: number) => {
  let total = 0
  let count = 0
  for (const row of rows) {
    const value = row[column]?.trim()
    if (!value) continue
    total += value.length
    count += 1
  }
  return count ? total / count : 0
}

export function recogniseQaColumns(rows: string[][]): QaColumns {
  let headerIndex = -1
  let best = 0
  for (let i = 0; i < Math.min(rows.length, 30); i++) {
    const score = headerScore(rows[i] ?? [])
    if (score > best && filled(rows[i]) >= 2) {
      best = score
      headerIndex = i
    }
  }
  const result: QaColumns = {
    headerRow: headerIndex + 1 || 1,
    question: null,
    answer: null,
    dropdown: null,
    tags: null,
  }
  const header = headerIndex >= 0 ? (rows[headerIndex] ?? []) : []
  const data = rows.slice(headerIndex + 1, headerIndex + 201)
  const width = Math.max(0, ...rows.slice(0, 200).map((row) => row.length))

  if (best >= 3) {
    const questionColumns = header.flatMap((cell, i) => (QUESTION.test(cell) ? [i] : []))
    // several question-like headers (e.g. 'Control Question' and 'Question ID'): a column headed
    // 'Question' itself (a CAIQ's, beside its control specification), else the longest texts win
    const plain = questionColumns.filter((i) => /^\s*questions?\s*$/i.test(header[i] ?? ''))
    result.question =
      (plain.length ? plain : questionColumns).sort(
        (a, b) => averageLength(data, b) - averageLength(data, a),
      )[0] ?? null
    const answerColumns = header.flatMap((cell, i) =>
      i !== result.question && ANSWER.test(cell) ? [i] : [],
    )
    const strong = answerColumns.filter((i) => STRONG_ANSWER.test(header[i] ?? ''))
    const ordered = [...strong, ...answerColumns.filter((i) => !strong.includes(i))]
    const choiceColumn = ordered.find((i) => choiceShare(data, i) >= 0.6)
    const textColumn = ordered.find((i) => i !== choiceColumn && averageLength(data, i) > 0)
    if (choiceColumn !== undefined) {
      result.dropdown = choiceColumn
      result.answer = textColumn ?? choiceColumn
    } else {
      result.answer = ordered.find((i) => averageLength(data, i) > 0) ?? ordered[0] ?? null
    }
    const tagsColumn = header.findIndex(
      (cell, i) => TAGS.test(cell) && i !== result.question && i !== result.answer,
    )
    result.tags = tagsColumn >= 0 ? tagsColumn : null
  }
  if (result.question === null) {
    // no usable header: the column whose texts most often end with '?' or are longest
    let bestColumn = -1
    let bestScore = 0
    for (let column = 0; column < width; column++) {
      let questions = 0
      for (const row of data) if (row[column]?.trim().endsWith('?')) questions += 1
      const score = questions * 100 + averageLength(data, column)
      if (score > bestScore && questions > 0) {
        bestScore = score
        bestColumn = column
      }
    }
    if (bestColumn >= 0) {
      result.question = bestColumn
      // the answer columns the header named stand ('Vendor Answers', 'Additional Information')
      if (result.answer !== null && result.answer !== bestColumn) return result
      result.answer = null
      for (let column = bestColumn + 1; column < width; column++) {
        if (averageLength(data, column) > 0) {
          result.answer = column
          break
        }
      }
    }
  }
  return result
}

/**
 * A row that repeats the header's own words where the answers go: a section's header row
 * ('Company Overview | Vendor Answers | Additional Information'), whose first cell names the
 * section. It is no question, and its cells are no answers.
 */
export function repeatsHeader(cells: string[], header: string[], columns: QaColumns): boolean {
  const same = (column: number | null) =>
    column !== null &&
    Boolean(cells[column]?.trim()) &&
    cells[column]?.trim().toLowerCase() === header[column]?.trim().toLowerCase()
  return same(columns.answer) || same(columns.dropdown)
}

/**
 * A row that says one thing across the columns (a heading or an instruction merged across the
 * sheet): its question cell and its answer cell hold the same text.
 */
export const mergedAcross = (question: string, answer: string, dropdown: string) =>
  Boolean(question) && (question === answer || question === dropdown)

/** Turns a sheet's rows into blocks: one per data row, section rows becoming headings. */
export function rowsToBlocks(
  rows: string[][],
  sheet: string,
): { blocks: Block[]; dataRows: number } {
  const columns = recogniseQaColumns(rows)
  const headerIndex = columns.headerRow - 1
  const header = rows[headerIndex] ?? []
  const hasHeader = headerScore(header) >= 3
  const blocks: Block[] = []
  let heading: string | undefined
  let dataRows = 0
  // a header below the top (a HECVAT's column headings come after its General Information
  // rows): the rows above it are read too
  for (let i = 0; i < rows.length; i++) {
    if (hasHeader && i === headerIndex) continue
    const row = rows[i] ?? []
    const cells = row.map((cell) => cell.trim())
    const nonEmpty = cells.filter(Boolean)
    if (!nonEmpty.length) continue
    const question = columns.question !== null ? (cells[columns.question] ?? '') : ''
    const answer = columns.answer !== null ? (cells[columns.answer] ?? '') : ''
    const dropdown = columns.dropdown !== null ? (cells[columns.dropdown] ?? '') : ''
    // a section's own header row, or a line merged across: it heads the rows below it
    if (
      hasHeader &&
      (repeatsHeader(cells, header, columns) || mergedAcross(question, answer, dropdown))
    ) {
      const text = (question || nonEmpty[0]) ?? ''
      if (text.length <= 200) heading = text
      continue
    }
    const location = { sheet, row: i + 1, ...(heading ? { heading } : {}) }
    if (nonEmpty.length === 1 && !(question && question === nonEmpty[0] && answer)) {
      // a section row: one filled cell heads the rows below it
      const text = nonEmpty[0] ?? ''
      if (text.length <= 200) {
        heading = text
        continue
      }
    }
    dataRows += 1
    const fullAnswer = [dropdown && dropdown !== answer ? dropdown : '', answer]
      .filter(Boolean)
      .join('. ')
    if (question && fullAnswer) {
      const extras = cells
        .map((cell, c) =>
          cell && c !== columns.question && c !== columns.answer && c !== columns.dropdown
            ? `${header[c]?.trim() && hasHeader ? `${header[c]?.trim()}: ` : ''}${cell}`
            : '',
        )
        .filter(Boolean)
      blocks.push({
        text: [question, `Answer: ${fullAnswer}`, ...extras].join('\n'),
        location,
        qa: { question, answer: fullAnswer },
      })
      continue
    }
    const text = cells
      .map((cell, c) =>
        cell ? `${hasHeader && header[c]?.trim() ? `${header[c]?.trim()}: ` : ''}${cell}` : '',
      )
      .filter(Boolean)
      .join('\n')
    blocks.push({ text, location })
  }
  return { blocks, dataRows }
}

/** Why an imported row was left out (shown in the import's preview). */
export const SKIP_REASONS = {
  header: 'A section’s header row: it names the section, not a question',
  merged: 'A heading or instruction merged across the sheet',
  noQuestion: 'No question in the question column',
  noAnswer: 'No answer in the answer columns',
} as const
export type SkipReason = keyof typeof SKIP_REASONS

/**
 * The question and answer rows of a sheet under a column mapping (indexes, 0-based; headerRow
 * 1-based), and the rows left out with why: blank rows are neither.
 */
export function qaRowsOf(
  rows: string[][],
  columns: { headerRow: number; question: number; answer: number; dropdown: number | null },
) {
  const header = rows[columns.headerRow - 1] ?? []
  const mapped: QaColumns = { ...columns, tags: null }
  const items: { row: number; question: string; answer: string; dropdown: string | null }[] = []
  const skipped: { row: number; reason: SkipReason; text: string }[] = []
  for (const [index, row] of rows.entries()) {
    if (index < columns.headerRow) continue
    const cells = row.map((cell) => cell.trim())
    if (!cells.some(Boolean)) continue
    const question = cells[columns.question] ?? ''
    const text = cells[columns.answer] ?? ''
    const dropdown = columns.dropdown !== null ? cells[columns.dropdown] || null : null
    const first = (question || cells.find(Boolean) || '').slice(0, 120)
    const answer = text || dropdown || ''
    const reason: SkipReason | null = repeatsHeader(cells, header, mapped)
      ? 'header'
      : mergedAcross(question, text, dropdown ?? '')
        ? 'merged'
        : !question
          ? 'noQuestion'
          : !answer
            ? 'noAnswer'
            : null
    if (reason) skipped.push({ row: index + 1, reason, text: first })
    else items.push({ row: index + 1, question, answer, dropdown })
  }
  return { items, skipped }
}
