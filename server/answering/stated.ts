import { passageCitation } from './cite.ts'
import { YES_NO_QUESTION } from './library.ts'
import { cueTerms, mentions } from './practices.ts'
import {
  asksOfFlaw,
  holdsStem,
  PARTLY_STATED_CAP,
  PARTLY_STATED_PREFIX,
  QUALIFIERS,
  unstatedQualifiers,
} from './qualifiers.ts'
import { asksOfProvider, readPassage } from './statements.ts'
import {
  deniesTerms,
  leadingChoice,
  PURPOSE,
  type TfIdf,
  terms,
  withFormWords,
  withoutExamples,
} from './text.ts'

import { type Candidate, type PassageHit, type QuestionInput, STATED } from './types.ts'

/**
 * Answers from documents by practice: a Yes/No question names one or more practices (the practice
 * vocabulary); a document sentence that states each of them, in a passage that also holds what
 * else the question asks (its scope: whose data, which environment, how often), answers Yes, quoted
 * with its document and page. A sentence that denies the practice answers No. No such sentence,
 * no answer.
 */

/** Why a No rests on a document sentence (a Yes says STATED, as every Yes from a document does). */
export const PRACTICE_DENIED =
  'From a document: the quoted sentence says this practice is not in place. No answer of yours covers this question itself: check the quote before approving.'

/** Words of a question that ask, rather than say what is asked about. */
const ASKING = new Set(
  terms(
    'have support provide organization organisation company vendor system systems solution product service services institution institutional currently current implemented utilize utilizing employ perform performed available ensure place make made maintain offer offered well specific general generally either following least question type information security secure sensitive data application applications purpose another according completed accommodate able ability capability capable basis adopt adopted leverage deploy deployed automatically defined define technical measures relevant appropriate appropriately applicable law laws legal regulations regulatory statutory contractual organizational organizationally associated consider considering practices principle principles every run runs carry meet meets need needs requirement requirements conform conformance comply complies compliant undergo undergone underwent manage managing managed management after between until manner possible possibly necessary effective effectively effectiveness conduct conducted develop developed identify identified significant occur occurs',
  ),
)

/**
 * Words that ask for a documented practice (a policy, a plan, a procedure; 'established,
 * documented, approved, communicated, applied, evaluated and maintained'): any of them in the
 * context answers all of them, as one part of the scope.
 */
export const GOVERNANCE = new Set(
  terms(
    'policy policies procedure procedures process processes plan plans program programme strategy documented documentation formal formally standard standards guideline guidelines established approved communicated applied evaluated reviewed updated disseminated',
  ),
)

/**
 * How often, most often first: a question that names one is answered by a context that names the
 * same or a more frequent one ('at least annually': quarterly will do); one that asks for it
 * periodically, at planned intervals, by a context that names any.
 */
export const FREQUENCY: [string, Set<string>][] = (
  [
    ['day', 'daily nightly hourly continuous continuously'],
    ['week', 'weekly'],
    ['month', 'monthly'],
    ['quarter', 'quarterly'],
    ['annual', 'annual annually yearly'],
    ['periodic', 'periodic periodically regular regularly interval intervals routinely'],
  ] as const
).map(([name, words]) => [name, new Set(terms(words))])
export const frequencyOf = (term: string) =>
  FREQUENCY.find(([, words]) => words.has(term))?.[0] ?? null
/** The words of a frequency and of every more frequent one (any, for 'periodic'). */
export const atLeast = (name: string) => {
  const upTo = FREQUENCY.findIndex(([other]) => other === name)
  return new Set(FREQUENCY.slice(0, upTo + 1).flatMap(([, words]) => [...words]))
}

/**
 * Whether a term only frames a question ('Are ... policies and procedures established, reviewed
 * and updated at least annually?'): what it asks about is in its other terms.
 */
export const isFrameTerm = (term: string) =>
  ASKING.has(term) || GOVERNANCE.has(term) || frequencyOf(term) !== null

/**
 * Whether a sentence says how often, as often as the question asks or more ('at least annually':
 * quarterly will do); true when the question names no frequency.
 */
export function frequencyStated(question: string, sentenceTerms: string[]): boolean {
  const asked = new Set(terms(withoutExamples(question)).map(frequencyOf).filter(Boolean))
  if (!asked.size) return true
  const said = new Set(sentenceTerms)
  return [...asked].every((name) => [...atLeast(name as string)].some((word) => said.has(word)))
}

/** Words that say a plan or control is exercised, not only written or reviewed. */
export const TESTED = new Set(
  terms('test tested testing exercise exercised drill tabletop simulation pentest vulnscan'),
)

/** Words that say a documented practice is kept current: reviewed, updated, revised. */
export const KEPT_CURRENT = new Set(terms('review reviewed updated revised maintained'))
export const ASKS_KEPT_CURRENT = new Set(terms('review reviewed updated revised'))

/**
 * Whether a sentence says what the question asks be done with the practice: how often (as often
 * as asked or more); when the question asks that it be tested or exercised, that it is ('the
 * plan is reviewed annually' does not say it is exercised annually); when it asks that it be
 * reviewed or updated, that it is ('yearly planning' does not say the policies are reviewed).
 * A word that names the practice itself ('access reviews', 'software testing') asks nothing more.
 * True when it asks none of these.
 */
export function doneAsAsked(question: string, sentenceTerms: string[]): boolean {
  return frequencyStated(question, sentenceTerms) && actsStated(question, sentenceTerms)
}

/** Whether a sentence says the practice is tested, or reviewed, when the question asks it. */
export function actsStated(question: string, sentenceTerms: string[]): boolean {
  const words = terms(withoutExamples(question))
  const spans = mentions(words)
  const asked = words.filter((_, i) => !spans.some((m) => i >= m.from && i <= m.to))
  const said = new Set(sentenceTerms)
  const holds = (words: Set<string>) => [...words].some((word) => said.has(word))
  if (asked.some((term) => TESTED.has(term)) && !holds(TESTED)) return false
  if (asked.some((term) => ASKS_KEPT_CURRENT.has(term)) && !holds(KEPT_CURRENT)) return false
  return true
}

/** What a part other than a qualifier asks, in words ('annually' and other frequencies: 'it is done annually'). */
const OTHER_PARTS: Record<string, string> = {
  documented: 'it is documented',
  tested: 'it is tested',
  reviewed: 'it is reviewed',
}

const FREQUENCY_LABELS = new Set([
  'daily',
  'weekly',
  'monthly',
  'quarterly',
  'annually',
  'periodically',
])

/** 'Partly stated: the documents state vulnerability scanning; none says that it is automated.' */
export function partlyStated(named: string[], unstated: string[]): string {
  const phrases = unstated.map(
    (label) =>
      QUALIFIERS.find(
        (qualifier) => qualifier.label === label || scopeWords('', [qualifier.label])[0] === label,
      )?.phrase ??
      OTHER_PARTS[label] ??
      (FREQUENCY_LABELS.has(label) ? `it is done ${label}` : `it follows ${label}`),
  )
  const practice = named.length ? practiceNames(named) : 'the practice asked'
  return `${PARTLY_STATED_PREFIX} the documents state ${practice}; none says that ${listOf(phrases)}. Check before approving.`
}

/** Share of the question's other terms (idf-weighted) the context must hold for a Yes. */
export const SCOPE_FLOOR = 0.5

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
}

/**
 * Words by which a question refers back to the one before it: 'Are the policies and procedures
 * reviewed and updated at least annually?', 'Is this plan tested?'.
 */
const REFERS_BACK =
  /\b(?:the|these|this|those|such|its|their)\s+(?:(?:above|same|said|aforementioned)\s+)?(?:polic(?:y|ies)|procedures?|plans?|process(?:es)?|programs?|programmes?|scope|exercises?|documentation|requirements?|strateg(?:y|ies)|measures?|assessments?|reviews?|tests?|results?|reports?|agreements?)\b/i

/**
 * The practices a question names; those of its examples when it names none elsewhere ('any of the
 * following Web SSO standards'); those of the question before it when it names none and refers
 * back to it.
 */
export function namedPractices(text: string, previous?: string | null): string[] {
  const asked = withoutExamples(text)
  // what is to be done, not the purpose it serves ('cyber insurance to protect against incidents')
  const done = mentions(terms(asked.slice(0, PURPOSE.exec(asked)?.index))).map((m) => m.practice)
  if (done.length) return done
  const own = mentions(terms(asked)).map((m) => m.practice)
  if (own.length) return own
  const examples = mentions(terms(text)).map((m) => m.practice)
  if (examples.length) return examples
  if (!previous || !refersBack(text)) return []
  return mentions(terms(withoutExamples(previous))).map((m) => m.practice)
}

/**
 * Whether a question refers back to the one before it: by its words ('the policies', 'this
 * plan'), or by having nothing of its own to ask about ('Are policies and procedures reviewed and
 * updated at least annually?').
 */
const refersBack = (text: string) => {
  if (REFERS_BACK.test(text)) return true
  // 'Are policies and procedures reviewed and updated annually?': nothing of its own but the
  // review of documented practices ('Are all applicable requirements identified and documented?'
  // asks about something else, in frame words)
  const own = terms(withoutExamples(text))
  return (
    own.every((term) => isFrameTerm(term)) &&
    own.some((term) => GOVERNANCE.has(term)) &&
    own.some((term) => REVIEWED.has(term))
  )
}
const REVIEWED = new Set(terms('reviewed updated revised'))

/**
 * For a question that names no practice and refers back to the question before it: the practices
 * of that one ([] when it names none either). Null for any other question.
 */
export function inheritedPractices(question: QuestionInput): string[] | null {
  if (!question.previous || !refersBack(question.text)) return null
  if (mentions(terms(question.text)).length) return null
  return mentions(terms(withoutExamples(question.previous))).map((m) => m.practice)
}

/**
 * What a question asks about: the practices it names, and how much of the rest of it (its scope:
 * whose data, which environment, how often) a context holds, 0-1. Null when it names no practice.
 */
export function practiceScope(text: string, space: TfIdf, previous?: string | null) {
  const asked = terms(withoutExamples(text))
  const named = namedPractices(text, previous)
  if (!named.length) return null
  // the purpose a practice serves counts at half ('... to prevent unauthorized entry')
  const plain = withoutExamples(text)
  const turn = PURPOSE.exec(plain)?.index ?? plain.length
  const doneTerms = new Set(terms(plain.slice(0, turn)))
  const purposeOnly = new Set(terms(plain.slice(turn)).filter((term) => !doneTerms.has(term)))
  const cues = cueTerms(named)
  const isCue = (term: string) =>
    cues.has(term) || [...cues].some((cue) => cue.length >= 4 && term.startsWith(cue))
  // what else the question asks, as parts of its scope: its other words, one part for 'documented'
  // (any governance word), one for each frequency it names (any word of that frequency)
  // a qualifier asked (automated, measured, ...) is no part of the scope: the stating sentence
  // itself must say it, or the Yes is partly stated (unstatedQualifiers)
  const qualifierOf = (term: string) =>
    QUALIFIERS.find((qualifier) => holdsStem(qualifier.asks, term, true))
  const other = [...new Set(asked.filter((term) => !isCue(term) && !ASKING.has(term)))]
  // how often is said of the practice itself: held by the stating sentence, not elsewhere in the
  // passage ('Backups are encrypted. ... The policy is reviewed annually.')
  const parts: {
    label: string
    weight: number
    held: (context: Set<string>) => boolean
    bySentence?: true
  }[] = []
  if (other.some((term) => GOVERNANCE.has(term)))
    parts.push({
      label: 'documented',
      weight: 1,
      held: (context) => [...GOVERNANCE].some((t) => context.has(t)),
    })
  for (const [name] of FREQUENCY)
    if (other.some((term) => frequencyOf(term) === name)) {
      const words = [...atLeast(name)]
      parts.push({
        label: name,
        weight: 2,
        held: (context) => words.some((t) => context.has(t)),
        bySentence: true,
      })
    }
  const qualifiers = new Set<string>()
  for (const term of other) {
    // a qualifier weighs nothing in the scope (the sentence must say it, or the Yes is partly
    // stated) but is named, in the question's order, among what was looked for
    const qualifier = qualifierOf(term)
    if (qualifier) {
      if (!qualifiers.has(qualifier.label))
        parts.push({
          label: qualifier.label,
          weight: 0,
          held: (context) => [...context].some((word) => holdsStem(qualifier.says, word)),
          bySentence: true,
        })
      qualifiers.add(qualifier.label)
    } else if (!GOVERNANCE.has(term) && !frequencyOf(term))
      parts.push({
        label: term,
        weight: space.idf(term) * (purposeOnly.has(term) ? 0.5 : 1),
        held: (context) => context.has(term),
      })
  }
  const restWeight = parts.reduce((sum, part) => sum + part.weight, 0)
  /** Share of the scope a context holds; how often, from the stating sentence when given. */
  const shareOf = (context: Set<string>, sentence: Set<string> = context) =>
    restWeight
      ? parts.reduce(
          (sum, part) => sum + (part.held(part.bySentence ? sentence : context) ? part.weight : 0),
          0,
        ) / restWeight
      : 1
  /** The parts of the scope a context does not hold, and the qualifiers its sentence does not. */
  const missing = (context: Set<string>, sentence: Set<string> = context) => [
    ...parts
      .filter((part) => !part.held(part.bySentence ? sentence : context))
      .map((part) => part.label),
  ]

  /**
   * Share of what else the question asks of the practice (not whether it is documented, nor how
   * often) a context holds; 1 when it asks nothing else.
   */
  const details = parts.filter((part) => part.label !== 'documented' && !part.bySentence)
  const detailWeight = details.reduce((sum, part) => sum + part.weight, 0)
  const detailShareOf = (context: Set<string>) =>
    detailWeight
      ? details.reduce((sum, part) => sum + (part.held(context) ? part.weight : 0), 0) /
        detailWeight
      : 1

  return { named, shareOf, missing, detailShareOf }
}

export function practiceAnswer(
  question: QuestionInput,
  passages: PassageHit[],
  space: TfIdf,
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
  const ofProvider = asksOfProvider(question.text)

  // per practice, the best sentence that states it and the best that denies it
  const affirmed = new Map<string, Statement>()
  const denied = new Map<string, Statement>()
  for (const passage of passages) {
    if (passage.source === 'qa') continue
    const { context, statements } = readPassage(passage.text)
    for (const statement of statements) {
      const { sentence, sentenceTerms } = statement
      const practices = ofProvider ? statement.withProvider : statement.practices
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
        const best = negated ? denied : affirmed
        const current = best.get(practice)
        // the passage that holds more of what the question asks, then the sentence that does
        if (!current || compare({ scope, own, fit }, current) > 0)
          best.set(practice, { sentence, passage, negated, scope, own, fit })
      }
    }
  }
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
  if (statements.some((statement) => !statement)) return null
  const found = statements as Statement[]
  const denial = found.find((statement) => statement.negated && statement.scope >= SCOPE_FLOOR)
  if (denial) {
    if (!no) return null
    return candidateOf(no, [denial], PRACTICE_DENIED, 0.6)
  }
  const scope = Math.min(...found.map((statement) => statement.scope))
  if (scope < SCOPE_FLOOR) return null
  const unstated = unstatedQualifiers(
    question.text,
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

/** Practices as words: 'encryption at rest and key management'. */
export const practiceNames = (ids: string[]) => listOf(ids.map((id) => id.replaceAll('-', ' ')))

export const listOf = (items: string[]) =>
  items.length > 1
    ? `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`
    : (items[0] ?? '')

/** Parts of a question's scope (practiceScope's labels) in the question's own words. */
export function scopeWords(question: string, parts: string[]): string[] {
  const wordOf = new Map<string, string>()
  // every stem of a word stands for the whole word ('risk-based' for 'risk' and 'bas'): a stem is
  // never shown as if it were a word
  for (const word of question.toLowerCase().match(/[a-z0-9][a-z0-9-]*/g) ?? [])
    for (const term of terms(word)) if (!wordOf.has(term)) wordOf.set(term, word)
  const labels: Record<string, string> = {
    documented: 'documented',
    periodic: 'periodically',
    day: 'daily',
    week: 'weekly',
    month: 'monthly',
    quarter: 'quarterly',
    annual: 'annually',
    automated: 'automated',
    measured: 'measured by metrics',
    independent: 'independent',
    protected: 'protected against change',
  }
  return parts.map((part) => labels[part] ?? wordOf.get(part) ?? part)
}
