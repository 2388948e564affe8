import { ASKING, atLeast, FREQUENCY, frequencyOf, GOVERNANCE } from './framing.ts'
import { namedPractices } from './named-practices.ts'
import { cueTerms } from './practices.ts'
import { holdsStem, QUALIFIERS } from './qualifiers.ts'
import { PURPOSE, type TfIdf, terms, withoutExamples } from './text.ts'

/**
 * A question's scope: beside the practices it names, what else it asks (whose data, which
 * environment, documented, how often), and how much of it a context holds. A Yes from a document
 * needs its passage to hold at least SCOPE_FLOOR of it.
 */

/** Share of the question's other terms (idf-weighted) the context must hold for a Yes. */
export const SCOPE_FLOOR = 0.5

/**
 * Whose data, in each framework's word: HECVAT asks of the institution's data, SIG and VSA of the
 * customer's or client's, CAIQ of the cloud service customer's (CSC) or tenant's. A question that
 * names one is answered by a context that names any, or that speaks of sensitive data (which
 * holds the customer's): one part of the scope, not a word each framework spells its own way.
 */
const DATA_OWNERS = new Set(
  terms('customer client tenant csc cscs consumer subscriber institution institutional'),
)
const HOLDS_OWNER = new Set([...DATA_OWNERS, ...terms('sensitive')])

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
  const owner = other.find((term) => DATA_OWNERS.has(term))
  if (owner)
    parts.push({
      label: owner,
      weight: space.idf(owner),
      held: (context) => [...HOLDS_OWNER].some((t) => context.has(t)),
    })
  const qualifiers = new Set<string>()
  for (const term of other) {
    if (DATA_OWNERS.has(term)) continue
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
