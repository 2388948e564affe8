import { mentions } from './practices.ts'
import { terms, withoutExamples } from './text.ts'

/**
 * The frame of a question about a practice: the words that only ask ('Does your organisation
 * have ...'), that ask for it documented (policy, procedure, approved), how often (annually,
 * quarterly), that it be tested or kept current; and whether a sentence says the practice is done
 * as asked (how often, tested, reviewed: a Yes from a document says it in the stating sentence).
 */

/** Words of a question that ask, rather than say what is asked about. */
export const ASKING = new Set(
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
