import { mentions } from './practices.ts'
import { terms, withoutExamples } from './text.ts'

/**
 * What a question may ask of a practice beyond doing it (issue 27): that it is automated, measured
 * by metrics, independent, or itself protected against change. A sentence that states the practice
 * without the qualifier's words states only the base practice ('we scan for vulnerabilities' does
 * not say that remediation is automated): its Yes is given as partly stated, never High, and says
 * which part no sentence states. A qualifier word that is part of the practice's own name
 * ('independent assessment') asks nothing more.
 */
export interface Qualifier {
  label: string
  phrase: string
  /** Word stems that ask it in a question, and that say it in a sentence. */
  asks: string[]
  says: string[]
  /** Phrases of several words that ask and say it ('read-only', 'write once'). */
  phrases?: RegExp
}
export const QUALIFIERS: Qualifier[] = [
  {
    label: 'automated',
    phrase: 'it is automated',
    // 'automatically' describes how a practice works ('automatically lock the session'): not asked
    asks: ['automat'],
    says: ['automat', 'automatic', 'automatical', 'automation', 'orchestrat'],
  },
  {
    label: 'measured',
    phrase: 'it is measured by metrics',
    asks: ['metric', 'kpi', 'measur'],
    says: ['metric', 'kpi', 'measur', 'dashboard'],
  },
  {
    label: 'independent',
    phrase: 'it is independent',
    asks: ['independent', 'impartial'],
    says: ['independent', 'impartial', 'external'],
  },
  {
    label: 'protected',
    phrase: 'it is protected against change (read-only, immutable)',
    asks: ['immutabl', 'tamper', 'worm'],
    says: ['immutabl', 'tamper', 'worm'],
    phrases: /\b(?:read[- ]only|write[- ]once)\b/i,
  },
]

/** Whether a term is one of the stems (asked: exactly), or begins with one (said). */
export const holdsStem = (stems: string[], term: string, exact = false) =>
  stems.some((stem) => term === stem || (!exact && stem.length >= 5 && term.startsWith(stem)))

/**
 * The qualifiers (QUALIFIERS' labels) a question asks that none of the stating sentences holds;
 * [] when it asks none or the sentences state each.
 */
export function unstatedQualifiers(question: string, sentences: string[]): string[] {
  const plain = withoutExamples(question)
  const words = terms(plain)
  const spans = mentions(words)
  const asked = words.filter((_, i) => !spans.some((m) => i >= m.from && i <= m.to))
  const said = sentences.flatMap((sentence) => terms(sentence))
  return QUALIFIERS.filter(
    (qualifier) =>
      (asked.some((term) => holdsStem(qualifier.asks, term, true)) ||
        Boolean(qualifier.phrases?.test(plain))) &&
      !said.some((term) => holdsStem(qualifier.says, term)) &&
      !sentences.some((sentence) => qualifier.phrases?.test(sentence)),
  ).map((qualifier) => qualifier.label)
}

/** Reasons of Yes answers whose sentences state the practice but not every qualifier asked. */
export const PARTLY_STATED_PREFIX = 'Partly stated:'
/** The highest confidence such an answer is given: below the High band, whatever its score. */
export const PARTLY_STATED_CAP = 0.6

/**
 * A question that asks whether a flaw is present ('Are there any passwords hard-coded into your
 * systems?', 'Are passwords stored in plain text?'): its Yes would admit the flaw, so a sentence
 * that states the practice around it (password management) answers neither way.
 */
const FLAW =
  /\b(?:hard[- ]?cod(?:ed|ing)|plain[- ]?text|clear[- ]?text|unencrypted|default (?:passwords?|credentials?|accounts?)|been (?:breached|compromised))\b/i
export const asksOfFlaw = (question: string) => FLAW.test(question)
