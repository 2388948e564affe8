import { clean, type SheetInput } from './sheet.ts'

/**
 * The answers a questionnaire arrives with (issue 39): a file sent back half-filled, last year's
 * copy or a colleague's draft already holds answers in the cells where Quire would write. They
 * are read here, kept as the starting point (status `existing`) and never overwritten by
 * generation unless asked. What a blank form holds in those cells (a prompt to select, a bracketed
 * instruction, the same sentence on every row) is no answer.
 */
export interface ExistingAnswer {
  text: string
  choice: string | null
  comment: string
}

/** Where a question's answer goes in its tab (the cell kind of analyse.ts's AnswerTarget). */
interface CellTarget {
  type: string
  sheet?: string
  row?: number
  column?: number | null
  marks?: { column: number; label: string }[] | null
  comment?: number | null
}

interface Located {
  question: { text: string; target: CellTarget | null; vocabulary: string[] | null }
}

/** A cell's words that are a prompt, not an answer: 'Select...', '[Vendor response]', '-'. */
const PROMPT =
  /^(?:please\s+)?(?:select|choose|enter|type|click|insert|provide|describe|explain|add)\b|^[[<({].*[\]>)}]$|^[-–—_.…\s?:*]*$|^(?:tbd|to be (?:completed|provided|confirmed)|(?:vendor|supplier|your) (?:response|answer|comments?)|response|answer|comments?|notes?|remarks?)$/i
/**
 * A blank form's own example or instruction in the cell: a date mask, a dummy phone number or
 * domain, 'e.g., ...', 'See Instructions tab', 'Brief description of ...'.
 */
const EXAMPLE =
  /^(?:mm|dd|yy|yyyy)(?:\s*[/.-]\s*(?:mm|dd|yy|yyyy)){2}$|^\(?555\)?[-. ]?555[-. ]?5555$|\b(?:vendor\.domain|yourdomain|your-domain|example\.(?:com|org|edu))\b|^(?:e\.g\.|i\.e\.|for example\b|see (?:the )?instructions?\b|brief (?:description|summary|overview)\b)/i
/** A field's label ends so: 'Product Name and Version Information', 'Contact E-mail Address'. */
const FIELD_NOUN = /\b(?:names?|information|address|description|number|title|details|here)$/i
const STOP = new Set(['and', 'the', 'for', 'with', 'your', 'our', 'of', 'to', 'in', 'or', 'if'])
const contentWords = (text: string) =>
  new Set(
    text
      .toLowerCase()
      .replace(/e-mail/g, 'email')
      .split(/[^a-z]+/)
      .filter((word) => word.length >= 3 && !STOP.has(word)),
  )
/** A trailing '(if applicable)' or '(optional)' is the form's, not the answer's. */
const withoutAside = (text: string) => text.replace(/\s*\((?:if applicable|optional)\)$/i, '')

/**
 * Whether a cell restates its question's label as the thing to fill in ('Product Name' above
 * 'Product Name and Version Information'): a short label, most of its words, a field's noun at
 * the end, and none of an answer's figures, addresses or links.
 */
function restatesLabel(value: string, question: string) {
  if (/\d|@|https?:/i.test(value)) return false
  const label = contentWords(withoutAside(question))
  if (!label.size || label.size > 6) return false
  const said = contentWords(value)
  const shared = [...label].filter((word) => said.has(word)).length
  return shared >= Math.ceil(label.size / 2) && FIELD_NOUN.test(withoutAside(value))
}

/** Short values a form without a list takes as its choice. */
const CHOICE_WORDS = /^(?:yes|no|n\/?a|not applicable|partial(?:ly)?|unknown)$/i

const words = (value: string | undefined) => {
  const text = clean(value)
  return text && !PROMPT.test(text) ? text : ''
}

/** The vocabulary's entry a value stands for (its own words, any case), or null. */
function choiceOf(value: string, vocabulary: string[] | null): string | null {
  if (!value) return null
  const folded = value.toLowerCase()
  const found = vocabulary?.find((entry) => entry.trim().toLowerCase() === folded)
  return found ?? null
}

/** What a question's cells hold already, or null when they hold no answer. */
function existingAt(sheet: SheetInput, located: Located): ExistingAnswer | null {
  const { target, vocabulary, text: question } = located.question
  if (target?.type !== 'cell' || target.sheet !== sheet.name || !target.row) return null
  const row = sheet.rows[target.row - 1] ?? []
  const asked = withoutAside(clean(question)).toLowerCase()
  const placeholder = (value: string) =>
    withoutAside(value).toLowerCase() === asked ||
    EXAMPLE.test(value) ||
    restatesLabel(value, question)
  const answerCell = target.column == null ? '' : words(row[target.column])
  const commentCell = target.comment == null ? '' : words(row[target.comment])
  const answer = placeholder(answerCell) ? '' : answerCell
  const other = placeholder(commentCell) ? '' : commentCell
  // answers given by marking one of several columns
  const marked = target.marks?.find((mark) => clean(row[mark.column]))?.label ?? null
  if (marked) return { choice: marked, text: answer || other, comment: answer ? other : '' }
  if (vocabulary?.length) {
    const choice = choiceOf(answer, vocabulary)
    // a dropdown cell: its value is the choice, the narrative is in the comment column
    if (choice) return { choice, text: other, comment: '' }
    if (!answer && !other) return null
    return { choice: null, text: answer || other, comment: answer ? other : '' }
  }
  if (!answer) return null
  return { choice: null, text: answer, comment: other }
}

/**
 * The existing answers of a tab's questions, by index. A text that stands on half the rows or more
 * (three at least) is the form's own template, not anyone's answer; a Yes/No may repeat.
 */
export function existingAnswers(sheet: SheetInput, questions: Located['question'][]) {
  const found = questions.map((question) => existingAt(sheet, { question }))
  const counts = new Map<string, number>()
  for (const answer of found) {
    if (answer?.text) counts.set(answer.text, (counts.get(answer.text) ?? 0) + 1)
  }
  const template = (text: string) => {
    const count = counts.get(text) ?? 0
    return !CHOICE_WORDS.test(text) && count >= 3 && count >= questions.length * 0.5
  }
  return found.map((answer) => {
    if (!answer) return null
    const text = template(answer.text) ? '' : answer.text
    const comment = template(answer.comment) ? '' : answer.comment
    if (!text && !answer.choice) return null
    return { ...answer, text, comment }
  })
}
