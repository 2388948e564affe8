import type { Citation } from '../../contract/questionnaires.ts'
import { citationsOf, passageCitation } from './cite.ts'
import { type Library, YES_NO_QUESTION } from './library.ts'
import {
  actsStated,
  asksOfProvider,
  practiceNames,
  practiceScope,
  readPassage,
  scopeWords,
  statedIn,
  withoutExamples,
} from './stated.ts'
import { type TfIdf, terms, withFormWords } from './text.ts'
import type { Candidate, PassageHit, QuestionInput } from './types.ts'

/**
 * Evidence for the reviewer where the engine chooses no answer: a Yes/No question about practices
 * the organisation's documents or answers speak of, but not in all that the question asks ('Are
 * local emergency authorities included in the exercise?' against 'We conduct annual table-top
 * exercises'). The sentences and answers that state each practice are quoted, the choice is left
 * empty, and the note says what they do not say. Never a Yes or a No: a person decides.
 */

export const QUOTED_FOR_REVIEW_PREFIX = 'No answer chosen: the quotes speak of'

/**
 * How often a quote was found to state the practice the question asks (protocol e, judged by
 * hand: tests/fixtures/eval/caiq-from-hecvat-judged.json): quotes that also say something of what
 * is asked of the practice, and quotes that only name it. Low either way; never a choice.
 */
export const QUOTE_CONFIDENCE = { about: 0.3, named: 0.15 } as const

interface Quote {
  /** Share of the question's scope the quoted words themselves hold. */
  own: number
  scope: number
  fit: number
  text: string
  citations: Citation[]
}

export function reviewQuotes(
  question: QuestionInput,
  passages: PassageHit[],
  space: TfIdf,
  library: Library | null,
): Candidate | null {
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
        citations,
      })
  }
  // every practice the question names, spoken of
  const quotes = named.map((practice) => best.get(practice))
  if (quotes.some((quote) => !quote)) return null
  const unique = (quotes as Quote[]).filter(
    (quote, index, all) => all.findIndex((other) => other.text === quote.text) === index,
  )
  const missing = scopeWords(question.text, asked.missing(new Set()))
  return {
    text: unique.map((quote) => quote.text).join(' '),
    choice: null,
    reason: `${QUOTED_FOR_REVIEW_PREFIX} ${practiceNames(named)}${missing.length ? `; check what they say of: ${missing.slice(0, 6).join(', ')}` : ''}. Choose the answer yourself.`,
    // quotes that say something of what is asked of the practice are more often to the point
    confidence: unique.every((quote) => quote.own > 0)
      ? QUOTE_CONFIDENCE.about
      : QUOTE_CONFIDENCE.named,
    citations: unique.flatMap((quote) => quote.citations),
  }
}
