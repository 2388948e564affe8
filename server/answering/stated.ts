import { passageCitation } from './cite.ts'
import { doneAsAsked } from './framing.ts'
import { YES_NO_QUESTION } from './library.ts'
import { partlyStated } from './partial.ts'
import { cueTerms } from './practices.ts'
import { asksOfFlaw, PARTLY_STATED_CAP, unstatedQualifiers } from './qualifiers.ts'
import { practiceScope, SCOPE_FLOOR } from './scope.ts'
import { asksOfProvider, readPassage } from './statements.ts'
import { deniesTerms, leadingChoice, type TfIdf, terms, withFormWords } from './text.ts'
import { asThirdParty } from './third-party.ts'
import {
  type Candidate,
  type OtherParty,
  type PartyReader,
  type PassageHit,
  PRACTICE_DENIED,
  type QuestionInput,
  STATED,
} from './types.ts'

/**
 * Kinds `stated` and `denied`, by practice: a Yes/No question names one or more practices (the
 * practice vocabulary, named-practices.ts); a document sentence that states each of them, in a
 * passage that also holds what else the question asks (its scope, scope.ts: whose data, which
 * environment, how often), answers Yes, quoted with its document and page. A sentence that denies
 * the practice answers No. No such sentence, no answer. A qualifier asked and not stated makes
 * the Yes partial (partial.ts).
 */

// read here by the chat before the rule had a room of its own
export { namedPractices } from './named-practices.ts'

interface Statement {
  sentence: string
  passage: PassageHit
  negated: boolean
  /** Share of the question's scope its passage holds. */
  scope: number
  /** Share of the question's scope the sentence itself holds. */
  own: number
  /** Share of all the question's words (examples too) the sentence holds: the last tie-break. */
  fit: number
  /** Whose practice it states when not the organisation's (parties.ts). */
  party?: OtherParty
}

/** Per practice, the best sentence that states it and the best that denies it. */
type Sides = { affirmed: Map<string, Statement>; denied: Map<string, Statement> }
const sides = (): Sides => ({ affirmed: new Map(), denied: new Map() })

export function practiceAnswer(
  question: QuestionInput,
  passages: PassageHit[],
  space: TfIdf,
  /** Whose each sentence is: without it, every sentence but the hosting provider's is yours. */
  parties: PartyReader | null = null,
): Candidate | null {
  if (!YES_NO_QUESTION.test(question.text)) return null
  const vocabulary = question.vocabulary ?? []
  const yes = vocabulary.find((value) => leadingChoice(value) === 'yes') ?? null
  const no = vocabulary.find((value) => leadingChoice(value) === 'no') ?? null
  if (!yes || asksOfFlaw(question.text)) return null
  const asked = practiceScope(question.text, space, question.previous)
  if (!asked) return null
  const { named, shareOf } = asked
  const whole = new Set(terms(question.text))
  // a question about the hosting provider is answered by what the provider does
  const ofProvider = asksOfProvider(question.text)

  // the organisation's sentences, and other parties' (a lead where the organisation's say nothing)
  const mine = sides()
  const others = sides()
  for (const passage of passages) {
    if (passage.source === 'qa') continue
    const { context, statements } = readPassage(passage.text)
    for (const statement of statements) {
      const { sentence, sentenceTerms } = statement
      if (!statement.withProvider.some((practice) => named.includes(practice))) continue
      const party = parties && !ofProvider ? parties.whose(passage, sentence) : null
      // (another party's sentence states what it does, whoever it is: the hosting provider's too)
      const practices = ofProvider || party ? statement.withProvider : statement.practices
      const said = practices.filter((practice) => named.includes(practice))
      if (!said.length) continue
      const sentenceContext = withFormWords(sentenceTerms)
      const scope = shareOf(context, sentenceContext)
      const own = shareOf(sentenceContext)
      const fit = whole.size ? sentenceTerms.filter((t) => whole.has(t)).length / whole.size : 0
      // how often (and that it is tested, when asked) is a condition of a Yes: said in the
      // sentence itself
      const often = doneAsAsked(question.text, sentenceTerms)
      for (const practice of said) {
        const negated = deniesTerms(sentence, cueTerms([practice]), 5)
        if (!negated && !often) continue
        const { affirmed, denied } = party ? others : mine
        const best = negated ? denied : affirmed
        const current = best.get(practice)
        // the passage that holds more of what the question asks, then the sentence that does
        if (!current || compare({ scope, own, fit }, current) > 0)
          best.set(practice, {
            sentence,
            passage,
            negated,
            scope,
            own,
            fit,
            ...(party ? { party } : {}),
          })
      }
    }
  }
  const stated = (found: Sides) => answerOf(question.text, named, found, yes, no)
  const answer = stated(mine)
  if (answer !== undefined) return answer
  // no sentence of the organisation's states every practice asked: another party's sentences
  // that do are a lead (kind third_party), never the organisation's word
  const merged = sides()
  for (const practice of named)
    for (const side of ['affirmed', 'denied'] as const) {
      const statement = mine[side].get(practice) ?? others[side].get(practice)
      if (statement) merged[side].set(practice, statement)
    }
  const lead = stated(merged)
  if (!lead) return null
  // the other party whose sentence it quotes (the organisation's alone: its own answer)
  const party = [...merged.affirmed.values(), ...merged.denied.values()].find(
    (statement) => statement.party && lead.text.includes(statement.sentence),
  )?.party
  return party ? asThirdParty(lead, party) : lead
}

/**
 * The answer the best statements give: null where they contradict or hold too little of what is
 * asked; undefined where some practice asked has none.
 */
function answerOf(
  text: string,
  named: string[],
  { affirmed, denied }: Sides,
  yes: string,
  no: string | null,
): Candidate | null | undefined {
  // a denial that says more of what is asked than any statement answers No ('instead of providing
  // backups, customers can extract their data'); one that says as much contradicts it: no answer
  const statements: (Statement | undefined)[] = []
  for (const practice of named) {
    const yesSide = affirmed.get(practice)
    const noSide = denied.get(practice)
    const order = yesSide && noSide ? compare(noSide, yesSide) : 0
    if (yesSide && noSide && order === 0) return null
    statements.push(noSide && (!yesSide || order > 0) ? noSide : yesSide)
  }
  if (statements.some((statement) => !statement)) return undefined
  const found = statements as Statement[]
  const denial = found.find((statement) => statement.negated && statement.scope >= SCOPE_FLOOR)
  if (denial) {
    if (!no) return null
    return candidateOf(no, [denial], PRACTICE_DENIED, 0.6)
  }
  const scope = Math.min(...found.map((statement) => statement.scope))
  if (scope < SCOPE_FLOOR) return null
  const unstated = unstatedQualifiers(
    text,
    found.map((statement) => statement.sentence),
  )
  if (unstated.length)
    return candidateOf(
      yes,
      found,
      partlyStated(named, unstated),
      Math.min(PARTLY_STATED_CAP, 0.45 + 0.14 * scope),
    )
  return candidateOf(yes, found, STATED, 0.65 + 0.14 * scope)
}

type Rank = { scope: number; own: number; fit: number }
const compare = (a: Rank, b: Rank) => a.scope - b.scope || a.own - b.own || a.fit - b.fit

function candidateOf(
  choice: string,
  statements: Statement[],
  reason: string,
  confidence: number,
): Candidate {
  const unique = statements.filter(
    (statement, index) => statements.findIndex((s) => s.sentence === statement.sentence) === index,
  )
  const citations = unique.map(({ sentence, passage }) => passageCitation(passage, sentence))
  return {
    text: unique.map((statement) => statement.sentence).join(' '),
    choice,
    reason,
    confidence,
    citations,
  }
}
