import { aged } from './age.ts'
import { citationsOf } from './cite.ts'
import { doneAsAsked } from './framing.ts'
import { type Library, MAJORITY, YES_NO_QUESTION } from './library.ts'
import { forProduct, isProductFact } from './products.ts'
import { asksOfFlaw, unstatedQualifiers } from './qualifiers.ts'
import { practiceScope, SCOPE_FLOOR } from './scope.ts'
import { leadingChoice, type TfIdf, terms, toVocabulary, withFormWords } from './text.ts'
import { type Candidate, type LibraryEntry, type QuestionInput, sourceOf } from './types.ts'

/**
 * Library answers across frameworks: a question worded unlike any in the library ('Are encryption
 * and key management policies established, documented, approved...?' against 'Do you have an
 * encryption key management policy?') is answered from the organisation's answers to questions
 * that name the same practices (the practice vocabulary) within the same scope, when they agree.
 * Cited with the library entries they came from; medium confidence at most, below a match of the
 * question itself.
 */

export const TRANSFERRED =
  'From your answers to questions about the same practice in other words (cited). Check that they answer this question before approving.'

const LABEL = { yes: 'Yes', no: 'No', na: 'N/A' } as const

/** Confidence of a transferred answer: medium at most, scaled by agreement and scope. */
export const transferConfidence = (share: number, scope: number) => 0.5 + 0.25 * share * scope

export function transferAnswer(
  question: QuestionInput,
  library: Library,
  space: TfIdf,
): Candidate | null {
  if (!YES_NO_QUESTION.test(question.text) || asksOfFlaw(question.text)) return null
  const asked = practiceScope(question.text, space, question.previous)
  if (!asked) return null
  // the organisation's answers about the same practices, each within the question's scope
  const peers: { entry: LibraryEntry; scope: number; choice: 'yes' | 'no' | 'na' }[] = []
  const exact = new Set(library.withPractices(asked.named))
  const productFact = isProductFact(question.text)
  for (const entry of [...exact, ...library.withMorePractices(asked.named)]) {
    // a fact of one product is not carried from another (issue 38, products.ts)
    if (entry.otherProduct && productFact) continue
    const choice = leadingChoice(entry.dropdown ?? entry.answer)
    if (!choice || (!exact.has(entry) && choice !== 'yes')) continue
    const said = terms(`${entry.question} ${entry.detail}`)
    const scope = asked.shareOf(withFormWords(said))
    // a Yes says how often (and that it is tested) when the question asks it
    if (choice === 'yes' && !doneAsAsked(question.text, said)) continue
    // and every qualifier asked (automated, measured, independent, protected): an answer about
    // the practice alone is no answer about its qualifier (issue 27)
    if (
      choice === 'yes' &&
      unstatedQualifiers(question.text, [entry.question, entry.detail]).length
    )
      continue
    if (scope >= SCOPE_FLOOR) peers.push({ entry, scope, choice })
  }
  if (!peers.length) return null
  // one vote per source (a file, or a Q&A item); the answer two thirds of them give
  const votes = new Map<string, 'yes' | 'no' | 'na'>()
  for (const peer of [...peers].sort((a, b) => b.scope - a.scope))
    if (!votes.has(sourceOf(peer.entry))) votes.set(sourceOf(peer.entry), peer.choice)
  const counts = new Map<string, number>()
  for (const choice of votes.values()) counts.set(choice, (counts.get(choice) ?? 0) + 1)
  const [winner, count] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0] as [string, number]
  const share = count / votes.size
  if (share < MAJORITY) return null
  const label = LABEL[winner as keyof typeof LABEL]
  const vocabulary = question.vocabulary?.length ? question.vocabulary : null
  const choice = vocabulary ? toVocabulary(label, vocabulary) : null
  if (vocabulary && !choice) return null
  const backing = peers.filter((peer) => peer.choice === winner).sort((a, b) => b.scope - a.scope)
  const best = backing[0] as (typeof backing)[number]
  const detail = best.entry.detail.trim()
  const transferred = aged(
    {
      text: choice ? detail : [label, detail].filter(Boolean).join('. '),
      choice,
      reason: TRANSFERRED,
      confidence: transferConfidence(share, best.scope),
      citations: backing.slice(0, 3).flatMap((peer) => citationsOf(peer.entry)),
    },
    best.entry,
    question.asOf ?? new Date(),
  )
  // resting only on another product's answers: that product's, named and capped
  return backing.every((peer) => peer.entry.otherProduct)
    ? forProduct(transferred, best.entry, question)
    : transferred
}
