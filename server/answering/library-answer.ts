import { aged } from './age.ts'
import { citationsOf } from './cite.ts'
import { calibrate, isChoiceWord, WEAK_MATCH } from './library.ts'
import { forProduct } from './products.ts'
import { leadingChoice, toVocabulary } from './text.ts'
import type { Candidate, LibraryEntry, QuestionInput } from './types.ts'

/**
 * Kind `library`: an answer of the organisation's library (an approved Q&A item, a completed
 * questionnaire's row) to the question itself, mapped onto the answer cell's vocabulary
 * (Yes/No/N/A or any dropdown list), its confidence the match's, aged by its review date
 * (age.ts: past its review, never High); another product's entry is capped and named, or not
 * used for a fact of one product (products.ts). How the records that answer the same question
 * agree is agreement.ts.
 */

export function libraryCandidate(
  question: QuestionInput,
  match: { entry: LibraryEntry; score: number },
): Candidate | null {
  const { entry } = match
  const vocabulary = question.vocabulary?.length ? question.vocabulary : null
  const raw = (entry.dropdown ?? entry.answer).trim()
  let choice: string | null = null
  let text: string
  if (vocabulary) {
    choice = toVocabulary(raw, vocabulary) ?? toVocabulary(entry.answer, vocabulary)
    // a related question's Yes is no claim about this one
    if (match.score < WEAK_MATCH && choice && leadingChoice(choice) === 'yes') choice = null
    // a library answer that fits none of the cell's values is not forced into one
    if (!choice && isChoiceWord(entry.answer)) return null
    text = entry.detail || (isChoiceWord(entry.answer) ? '' : entry.answer)
    // 'Yes. All data is encrypted' beside a Yes dropdown: the dropdown already says Yes
    if (choice && leadingChoice(text) === leadingChoice(choice))
      text = text
        .replace(/^\s*(yes|no|n\/?a|not applicable)\b[\s.,:;–—-]*/i, '')
        .trim()
        .replace(/^\p{Ll}/u, (first) => first.toUpperCase())
  } else if (match.score < WEAK_MATCH && leadingChoice(entry.answer) === 'yes') {
    // a related question's Yes is no claim about this one: its narrative alone, if any
    text = entry.detail
  } else {
    text =
      isChoiceWord(entry.answer) && entry.detail
        ? `${entry.answer.replace(/\.$/, '')}. ${entry.detail}`
        : entry.answer || entry.detail
  }
  if (!text && !choice) return null
  // another product's entry: capped and named, or none for a fact of one product (products.ts)
  return forProduct(
    aged(
      { text, choice, confidence: calibrate(match.score), citations: citationsOf(entry) },
      entry,
      question.asOf ?? new Date(),
    ),
    entry,
    question,
  )
}
