import { kindOfReason } from './calibration.ts'
import { partsOf } from './parts.ts'
import { PARTLY_STATED_CAP, PARTLY_STATED_PREFIX, QUALIFIERS } from './qualifiers.ts'
import { leadingChoice } from './text.ts'
import type { Candidate, QuestionInput } from './types.ts'
import { listOf, practiceNames, scopeWords } from './wording.ts'

/**
 * Kind `partial`: a Yes from document sentences that state the practice but not everything the
 * question asks of it (a qualifier of qualifiers.ts: automated, measured, independent, protected;
 * or a part of parts.ts: documented, how often, tested, reviewed). Never High
 * (PARTLY_STATED_CAP), and its note says which part no sentence states.
 */

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

/**
 * A Yes or No from document sentences, with the question's parts and the quoted sentence that
 * states each (what the reviewer checks, and what a language model is asked to confirm).
 */
export function withParts(question: QuestionInput, candidate: Candidate): Candidate | null {
  const kind = kindOfReason(candidate.reason)
  // a library answer (its own, transferred, or another product's) is read whole, not part by part
  if (!candidate.choice || kind === 'library' || kind === 'transferred' || kind === 'other_product')
    return candidate
  const sentences = candidate.citations
    .filter((citation) => citation.kind === 'document')
    .map((citation) => citation.snippet)
  const parts = partsOf(question.text, sentences, question.previous)
  if (!parts.length) return candidate
  // (another party's No reads as a denial does; its Yes stays a lead whatever part is unstated)
  const thirdParty = kind === 'third_party'
  if (kind === 'denied' || (thirdParty && leadingChoice(candidate.choice) === 'no'))
    return { ...candidate, parts }
  // a Yes whose quoted sentences do not state the practice itself is not given; one that states
  // the practice but not everything asked of it (documented, how often, tested, automated, ...)
  // is partly stated, never High, and says which part no sentence states
  if (parts.some((part) => part.kind === 'practice' && !part.sentence)) return null
  const unstated = parts.filter((part) => part.kind !== 'practice' && !part.sentence)
  if (!unstated.length || kind === 'partial' || thirdParty) return { ...candidate, parts }
  const named = parts.filter((part) => part.kind === 'practice').map((part) => part.label)
  return {
    ...candidate,
    parts,
    reason: partlyStated(
      named.map((label) => label.replaceAll(' ', '-')),
      unstated.map((part) => part.label),
    ),
    confidence: Math.min(PARTLY_STATED_CAP, candidate.confidence - 0.2),
  }
}
