import type { Citation } from '../../contract/questionnaires.ts'
import { citationsOf, passageCitation, snippet } from './cite.ts'
import { actsStated } from './framing.ts'
import { type Library, YES_NO_QUESTION } from './library.ts'
import { practiceScope } from './scope.ts'
import { asksOfProvider, readPassage, statedIn } from './statements.ts'
import { type TfIdf, terms, withFormWords, withoutExamples } from './text.ts'
import type { PassageHit, QuestionInput } from './types.ts'

/**
 * The nearest evidence, where the engine abstains: a Yes/No question about practices the
 * organisation's documents or answers speak of, but not in all that the question asks ('Are local
 * emergency authorities included in the exercise?' against 'We conduct annual table-top
 * exercises'). No sentence states the practice as asked, so there is no answer; the sentences and
 * answers that speak of each practice are cited with the abstention, so that the reviewer who
 * writes the answer starts from them. Measured on protocol e, such passages state the practice
 * asked about a third of the time: they are leads, not answers.
 */

/** What follows the closest quote when other passages about the practices are cited too. */
export const OTHERS_CITED = 'Other passages about it are cited.'

interface Quote {
  /** Share of the question's scope the quoted words themselves hold. */
  own: number
  scope: number
  fit: number
  text: string
  /** The quote as the abstention gives it: a sentence, or the organisation's answer. */
  closest: string
  citations: Citation[]
}

export function nearestEvidence(
  question: QuestionInput,
  passages: PassageHit[],
  space: TfIdf,
  library: Library | null,
): Citation[] | null {
  return nearestQuotes(question, passages, space, library)?.citations ?? null
}

/** The nearest evidence, with the closest quote in words ('“We conduct annual ...”'). */
export function nearestQuotes(
  question: QuestionInput,
  passages: PassageHit[],
  space: TfIdf,
  library: Library | null,
): { closest: string; citations: Citation[] } | null {
  if (!YES_NO_QUESTION.test(question.text)) return null
  const asked = practiceScope(question.text, space, question.previous)
  if (!asked) return null
  const { named, shareOf, detailShareOf } = asked
  const ofProvider = asksOfProvider(question.text)
  const whole = new Set(terms(withoutExamples(question.text)))
  const fitOf = (list: string[]) =>
    whole.size ? list.filter((term) => whole.has(term)).length / whole.size : 0
  const best = new Map<string, Quote>()
  const consider = (practice: string, quote: Quote) => {
    const current = best.get(practice)
    // the quote that says more of what is asked, then its context, then the words closest to
    // the question's
    const order = current
      ? quote.own - current.own || quote.scope - current.scope || quote.fit - current.fit
      : 1
    if (order > 0) best.set(practice, quote)
  }
  for (const passage of passages) {
    if (passage.source === 'qa') continue
    const { context, statements } = readPassage(passage.text)
    const scope = shareOf(context)
    for (const statement of statements)
      for (const practice of (ofProvider ? statement.withProvider : statement.practices).filter(
        (id) => named.includes(id),
      )) {
        const { sentence, sentenceTerms } = statement
        const own = detailShareOf(withFormWords(sentenceTerms))
        // a sentence that does not say the practice is tested, or reviewed, when the question
        // asks that, is no evidence of it
        if (!actsStated(question.text, sentenceTerms)) continue
        consider(practice, {
          own,
          scope,
          fit: fitOf(sentenceTerms),
          text: sentence,
          closest: `“${sentence}”`,
          citations: [passageCitation(passage, sentence)],
        })
      }
  }
  for (const entry of library?.withPractices(named) ?? []) {
    const said = terms(`${entry.question} ${entry.detail}`)
    const scope = shareOf(withFormWords(said))
    const own = detailShareOf(withFormWords(said))
    if (!(entry.answer.trim() || entry.detail.trim())) continue
    if (!actsStated(question.text, said)) continue
    const citations = citationsOf(entry)
    for (const practice of statedIn(entry.question, said, ofProvider).filter((id) =>
      named.includes(id),
    ))
      consider(practice, {
        own,
        scope,
        fit: fitOf(said),
        text: citations[0]?.snippet ?? entry.question,
        closest: `your answer to “${entry.question.trim()}”: ${snippet([entry.answer, entry.detail].filter(Boolean).join('. '), 240)}`,
        citations,
      })
  }
  // every practice the question names, spoken of
  const quotes = named.map((practice) => best.get(practice))
  if (quotes.some((quote) => !quote)) return null
  const unique = (quotes as Quote[]).filter(
    (quote, index, all) => all.findIndex((other) => other.text === quote.text) === index,
  )
  const citations = unique.flatMap((quote) => quote.citations)
  // the quote that says most of what is asked is the closest
  const [closest] = [...unique].sort((a, b) => b.own - a.own || b.scope - a.scope || b.fit - a.fit)
  return citations.length && closest ? { closest: closest.closest, citations } : null
}
