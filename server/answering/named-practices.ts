import { GOVERNANCE, isFrameTerm } from './framing.ts'
import { mentions } from './practices.ts'
import { PURPOSE, terms, withoutExamples } from './text.ts'
import type { QuestionInput } from './types.ts'

/**
 * Which practices a question names (the practice vocabulary of practices.ts): its own, those of
 * its examples, or, for a question that refers back ('Are these policies reviewed annually?'),
 * those of the question before it.
 */

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
