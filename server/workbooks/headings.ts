import { looksLikeQuestion } from './extract.ts'
import { namesAnswerColumn } from './headers.ts'
import {
  clean,
  distinctTexts,
  emphasisedAt,
  isText,
  listedAt,
  mergedAcross,
  nonEmpty,
  type SheetInput,
} from './sheet.ts'

/**
 * Section heading rows among a tab's question rows ('2.0 Data Security', 'Service Hosting'). A
 * row whose text is put as a question is a question. Otherwise a row is a heading when:
 * - its question cell is merged across the answer column (a heading has no answer cell);
 * - its answer cells repeat the header's labels ('Hosting | Response | Comments');
 * - its number is a section's ('3', '3.0', 'C') and the next numbered row is inside it ('3.1');
 * and, for a row without a number of its own, when the tab's other rows show what it lacks or
 * lack what it shows:
 * - the tab numbers its questions and this row has no number;
 * - it is drawn bold or shaded where most question rows are not;
 * - the tab's rows are answered (an export) and this short one is not;
 * - the tab's answer cells offer a list and this short one does not;
 * - it stands alone on its row, a short title, on a tab whose rows are mostly put as questions
 *   and whose headings are not marked otherwise (a tab that marks its headings marks them all).
 * A numbered row that is bold or shaded unlike the questions is a heading only when it is also
 * unanswered among answered rows: a field such as 'Vendor Name' keeps its number and stays, with
 * or without a list beside it.
 */

export interface Columns {
  id: number | null
  question: number
  answer: number | null
  comment: number | null
}

export interface Candidate {
  /** 0-based row. */
  index: number
  /** The row's own number: its ID cell, or the number its text starts with. */
  id: string | null
  text: string
}

/** A number a text starts with ('5.0 Secure Development', 'C. People', '6) Privacy'). */
const LEADING_NUMBER = /^(?:(\d{1,3}(?:\.\d{1,3}){0,3})[.):]?|([A-Z])[.):])\s+(?=\p{L})/u
/** A title: a few words, no sentence. */
const SHORT_WORDS = 8
const TITLE_WORDS = 6

/** The number a text starts with, and the text without it. */
export function leadingNumber(text: string): { id: string; rest: string } | null {
  const match = LEADING_NUMBER.exec(text.trim())
  return match
    ? { id: (match[1] ?? match[2]) as string, rest: text.trim().slice(match[0].length) }
    : null
}

/**
 * Whether `id` numbers a section that `next` is inside: 'A' of 'A.1', '3' or '3.0' of '3.1',
 * '5.3' of '5.3.1', 'DS-1' of 'DS-1.1'.
 */
export function isSectionOf(id: string, next: string) {
  const own = id.replace(/[.\s]+$/, '')
  if (!own || own === next) return false
  if (next.startsWith(own) && /^[.-]\S/.test(next.slice(own.length))) return true
  const whole = /^(\d{1,3}(?:\.\d{1,3})*)\.0{1,2}$/.exec(own)
  return Boolean(whole && next.startsWith(`${whole[1]}.`) && !/^\d+\.0+$/.test(next))
}

const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length

/** The 0-based rows among `candidates` that are section headings. */
export function headingRows(
  sheet: SheetInput,
  columns: Columns,
  candidates: Candidate[],
  /** The tab's header row, when it has one. */
  header: string[] = [],
): Set<number> {
  const answerAt = columns.answer ?? columns.comment
  const texts = candidates.map((candidate) => clean(candidate.text))
  const leading = texts.map((text) => leadingNumber(text))
  const numbers = candidates.map((candidate, at) => candidate.id ?? leading[at]?.id ?? null)
  const features = candidates.map((candidate, position) => {
    const row = sheet.rows[candidate.index] ?? []
    const text = texts[position] as string
    const numbered = numbers[position]
    const words = leading[position]?.rest ?? text
    const next = numbers.slice(position + 1, position + 6).find(Boolean)
    // what fills the answer cells: a merged heading fills them with its own text
    const answerCells = [columns.answer, columns.comment].flatMap((column) =>
      column === null ? [] : [{ cell: clean(row[column]), label: clean(header[column]) }],
    )
    const cells = answerCells.map(({ cell }) => cell)
    const labelled = answerCells.flatMap(({ cell, label }) =>
      cell ? [cell.toLowerCase() === label.toLowerCase()] : [],
    )
    return {
      row,
      index: candidate.index,
      words,
      formed: looksLikeQuestion(words) || looksLikeQuestion(text),
      numbered: Boolean(numbered),
      section: Boolean(numbered && next && isSectionOf(numbered, next)),
      merged: answerAt !== null && mergedAcross(sheet, candidate.index, columns.question, answerAt),
      answered: cells.some((cell) => cell && cell !== text),
      // 'Service Hosting | Response | Comments': the header's labels repeated beside a title
      labels: labelled.some(Boolean) && labelled.every(Boolean),
      listed: answerAt !== null && listedAt(sheet, candidate.index, answerAt),
      strong: emphasisedAt(sheet, candidate.index, columns.question),
      short: wordCount(words) <= SHORT_WORDS && !/[.?!]$/.test(words),
      title: wordCount(words) <= TITLE_WORDS && !/[.?!:;,]$/.test(words) && isText(words),
    }
  })
  const share = (test: (feature: (typeof features)[number]) => boolean) =>
    features.length ? features.filter(test).length / features.length : 0
  const shares = {
    numbered: share((f) => f.numbered),
    answered: share((f) => f.answered),
    listed: share((f) => f.listed),
    strong: share((f) => f.strong),
    formed: share((f) => f.formed),
  }
  const marked = (f: (typeof features)[number]) => {
    const lacksAnswer = !f.answered && shares.answered >= 0.6
    const lacksList = !f.listed && shares.listed >= 0.6
    const styled = f.strong && shares.strong <= 1 / 3
    if (f.merged || f.section || f.labels) return true
    if (f.numbered) return styled && lacksAnswer
    return shares.numbered >= 0.75 || styled || (f.short && (lacksAnswer || lacksList))
  }
  const headings = new Set(features.filter((f) => !f.formed && marked(f)).map((f) => f.index))
  // a tab that marks its headings marks them all; one that marks none may still set a short
  // title alone on its row among rows put as questions ('Service Hosting')
  if (!headings.size && shares.formed >= 0.7)
    for (const f of features)
      if (!f.formed && f.title && distinctTexts(f.row).length === 1) headings.add(f.index)
  return headings
}

/** A section number on its own ('3', '3.0', 'C.', 'IV'): beside a title, the title is the heading. */
const SECTION_NUMBER = /^(?:\d{1,3}(?:\.\d{1,3}){0,3}|[A-Z]{1,2}|[IVX]{1,5})[.)]?$/
/** A heading's title: a few words, no sentence (merged notes and instructions are not headings). */
const isTitle = (text: string) => {
  const words = leadingNumber(text)?.rest ?? text
  return words.split(/\s+/).length <= 8 && !/[.;:?!]/.test(words)
}

/**
 * The heading a row that holds no question gives: one text at or left of the question column
 * (a section number beside it allowed), not put as a question; a text on several cells (merged,
 * beside its number, or followed by the column labels repeated) only when it reads as a title.
 */
export function headingOf(row: string[] | undefined, questionColumn: number): string | null {
  const filled = nonEmpty(row)
  const texts = distinctTexts(row).filter((text) => !SECTION_NUMBER.test(text))
  const heading = texts[0]
  if (!heading) return null
  const at = (row ?? []).findIndex((cell) => clean(cell) === heading)
  if (at > questionColumn || !isText(heading) || heading.length > 200) return null
  if (looksLikeQuestion(heading)) return null
  if (filled.length === 1) return heading
  // 'Company Overview | Vendor Answers | Additional Information | Analyst Notes'
  const labels = texts.slice(1)
  const repeatsLabels =
    labels.every((label) => label.length <= 40) &&
    labels.filter(namesAnswerColumn).length >= labels.length / 2
  return isTitle(heading) && (!labels.length || repeatsLabels) ? heading : null
}

/** The section of each question row: the heading row above it (classified or standing alone). */
export function sectionsByRow(
  sheet: SheetInput,
  questionColumn: number,
  headerRow: number,
  questionRows: Set<number>,
  headings: Map<number, string>,
) {
  const sections = new Map<number, string>()
  let current: string | null = null
  sheet.rows.forEach((row, index) => {
    // banners and titles above the header are the tab's, not a section's
    if (index < headerRow) return
    if (questionRows.has(index)) {
      if (current) sections.set(index, current)
      return
    }
    const heading = headings.get(index) ?? headingOf(row, questionColumn)
    if (heading) current = heading
  })
  return sections
}
