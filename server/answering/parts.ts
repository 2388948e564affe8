import {
  ASKS_KEPT_CURRENT,
  atLeast,
  FREQUENCY,
  frequencyOf,
  GOVERNANCE,
  KEPT_CURRENT,
  TESTED,
} from './framing.ts'
import { namedPractices } from './named-practices.ts'
import { mentions } from './practices.ts'
import { holdsStem, QUALIFIERS } from './qualifiers.ts'
import { asksOfProvider, certificationKey, certificationsOf, statedIn } from './statements.ts'
import { terms, withoutExamples } from './text.ts'
import type { AnswerPart, PartKind } from './types.ts'
import { practiceNames, scopeWords } from './wording.ts'

/**
 * A question read part by part (issue 27): the practices it names, and what it asks of them (that
 * they are documented, how often, that they are tested or reviewed, automated, measured,
 * independent, protected against change). For each part, the first of an answer's sentences that
 * states it, or null. The reviewer sees the parts beside the answer; calibration reads the
 * question's shape from them.
 */

interface Asked {
  label: string
  kind: PartKind
  /** Whether one sentence (its text and folded terms) states the part. */
  held: (sentence: string, sentenceTerms: string[]) => boolean
}

const PROCESS = new Set(terms('process processes standard standards'))
/**
 * Words that say a practice is written down: a sentence that says it is approved or reviewed does
 * not say it is documented.
 */
const WRITTEN = new Set(
  terms(
    'documented documentation document documents written policy policies procedure procedures plan plans program programme standard standards guideline guidelines formal formally handbook runbook playbook charter',
  ),
)

/** What a question asks, part by part; [] when it names no practice. */
export function askedParts(question: string, previous?: string | null): Asked[] {
  const named = namedPractices(question, previous)
  if (!named.length) return []
  const ofProvider = asksOfProvider(question)
  const parts: Asked[] = named.map((id) => ({
    label: practiceNames([id]),
    kind: 'practice' as const,
    held: (sentence, sentenceTerms) => statedIn(sentence, sentenceTerms, ofProvider).includes(id),
  }))
  const plain = withoutExamples(question)
  const words = terms(plain)
  const spans = mentions(words)
  // the words outside the practices' names: 'access reviews' names a practice, asks no review
  const other = words.filter((_, i) => !spans.some((m) => i >= m.from && i <= m.to))
  const has = (set: Set<string>) => other.some((term) => set.has(term))
  const holdsAny = (set: Set<string>) => (_: string, sentenceTerms: string[]) =>
    sentenceTerms.some((term) => set.has(term))
  // ('a process' asks that something is done, not that it is written down; 'standards' are often
  // named ones, 'the Federal Information Processing Standards')
  if (other.some((term) => GOVERNANCE.has(term) && !PROCESS.has(term)))
    parts.push({ label: 'documented', kind: 'documented', held: holdsAny(WRITTEN) })
  for (const [name] of FREQUENCY)
    if (other.some((term) => frequencyOf(term) === name))
      parts.push({
        label: scopeWords(question, [name])[0] ?? name,
        kind: 'frequency',
        held: holdsAny(atLeast(name)),
      })
  if (has(TESTED)) parts.push({ label: 'tested', kind: 'tested', held: holdsAny(TESTED) })
  if (has(ASKS_KEPT_CURRENT))
    parts.push({ label: 'reviewed', kind: 'tested', held: holdsAny(KEPT_CURRENT) })
  // a standard or certification named ('NIST SP 800-88', 'FIPS 140-3') is said by a sentence
  // naming the same one: another standard, or another version, is not it
  for (const name of certificationsOf(plain))
    parts.push({
      label: name,
      kind: 'qualifier',
      held: (sentence) =>
        certificationsOf(sentence).some(
          (said) => certificationKey(said) === certificationKey(name),
        ),
    })
  for (const qualifier of QUALIFIERS)
    if (
      other.some((term) => holdsStem(qualifier.asks, term, true)) ||
      qualifier.phrases?.test(plain)
    )
      parts.push({
        label: scopeWords(question, [qualifier.label])[0] ?? qualifier.label,
        kind: 'qualifier',
        held: (sentence, sentenceTerms) =>
          sentenceTerms.some((term) => holdsStem(qualifier.says, term)) ||
          Boolean(qualifier.phrases?.test(sentence)),
      })
  return parts
}

/** The parts of a question and, for each, the first sentence that states it (null: none does). */
export function partsOf(
  question: string,
  sentences: string[],
  previous?: string | null,
): AnswerPart[] {
  const read = sentences.map((sentence) => ({ sentence, sentenceTerms: terms(sentence) }))
  const asked = askedParts(question, previous)
  const practices = asked.filter((part) => part.kind === 'practice')
  // what is asked of the practice is said of it: by a sentence that states the practice
  const stating = read.filter(({ sentence, sentenceTerms }) =>
    practices.some((part) => part.held(sentence, sentenceTerms)),
  )
  return asked.map((part) => ({
    label: part.label,
    kind: part.kind,
    sentence:
      (part.kind === 'practice' ? read : stating).find(({ sentence, sentenceTerms }) =>
        part.held(sentence, sentenceTerms),
      )?.sentence ?? null,
  }))
}

/**
 * The shape of a question, for calibration: one practice and nothing more asked of it; a practice
 * with qualifiers (how often, tested, automated, ...); a governance list (policies and procedures
 * established, documented, approved, communicated, ... : three or more such words); several
 * practices at once. 'none' names no practice of the vocabulary.
 */
export const QUESTION_SHAPES = ['single', 'qualified', 'governance', 'compound', 'none'] as const
export type QuestionShape = (typeof QUESTION_SHAPES)[number]

/** Governance words that make a question a list of what a documented practice must be. */
const GOVERNANCE_LIST = 3

export function shapeOf(question: string, previous?: string | null): QuestionShape {
  const parts = askedParts(question, previous)
  if (!parts.length) return 'none'
  const governance = new Set(terms(withoutExamples(question)).filter((t) => GOVERNANCE.has(t)))
  if (governance.size >= GOVERNANCE_LIST) return 'governance'
  if (parts.filter((part) => part.kind === 'practice').length > 1) return 'compound'
  if (parts.some((part) => part.kind !== 'practice' && part.kind !== 'documented'))
    return 'qualified'
  return 'single'
}
