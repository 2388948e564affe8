import { lookedFor, withClosest } from './abstention.ts'
import { withinCeiling } from './age.ts'
import { byAgreement, choiceOf, withAgreement } from './agreement.ts'
import { calibrated } from './calibration.ts'
import { extractive } from './extractive.ts'
import { type Library, RELATED_FLOOR, REUSE_FLOOR, SAME_QUESTION, WEAK_MATCH } from './library.ts'
import { libraryCandidate } from './library-answer.ts'
import { inheritedPractices, namedPractices } from './named-practices.ts'
import { ownNamesOf } from './own-names.ts'
import { withParts } from './partial.ts'
import { partiesFor } from './parties.ts'
import { shapeOf } from './parts.ts'
import { practicesOf } from './practices.ts'
import { otherProductFactLead } from './products.ts'
import { nearestQuotes } from './quotes.ts'
import { practiceAnswer } from './stated.ts'
import { dataItemsOf, submissionAnswer, submissionField } from './submission.ts'
import { leadingChoice, type TfIdf } from './text.ts'
import { transferAnswer } from './transfer.ts'
import {
  type Candidate,
  type EngineAnswer,
  type LibraryEntry,
  NO_EVIDENCE,
  type PassageHit,
  type QuestionInput,
} from './types.ts'

/**
 * The library engine: answers a question from the organisation's own evidence and never invents.
 * 1. Library answers: approved Q&A items and the question/answer pairs of completed
 *    questionnaires in the repository, matched question to question (TF-IDF over terms with
 *    domain synonyms folded, plus bigrams). A strong match is reused and mapped onto the answer
 *    cell's vocabulary (Yes/No/N/A or any dropdown list).
 * 2. Otherwise an extractive answer: the sentences of the document passages (full-text search,
 *    ranks fused with data items) that best cover the question's terms, quoted with citations.
 * 3. Otherwise nothing, said plainly: status 'no answer', confidence 0.
 * Retrieval reads only the requesting organisation's rows (LL1, LL4).
 *
 * Each rule has its room, named by the kind of the answer it gives (calibration.ts, ANSWER_KINDS):
 * a library answer (library-answer.ts), how the records that hold the question agree
 * (agreement.ts), its age (age.ts); a library answer from another framework (transfer.ts); a
 * document sentence that states or denies the practice (stated.ts), the passages that best cover
 * the question (extractive.ts), partly stated (partial.ts); a field of the submission
 * (submission.ts); no answer, with what was looked for (abstention.ts, quotes.ts).
 */

/**
 * The answers of the questionnaire's own product (and the company's) to the question: another
 * product's count only where none of these does, so that a sister product's different answer is
 * no conflict (issue 38, products.ts).
 */
const ownFirst = <T extends { entry: LibraryEntry }>(matches: T[]) => {
  const own = matches.filter((match) => !match.entry.otherProduct)
  return own.length ? own : matches
}

const candidateKey = (candidate: Candidate) =>
  `${candidate.choice ?? ''}\u001f${candidate.text.toLowerCase().replace(/\s+/g, ' ').slice(0, 200)}`

/** Up to three distinct candidates for a question, best first; none when there is no evidence. */
export function answerFromEvidence(
  question: QuestionInput,
  matches: { entry: LibraryEntry; score: number }[],
  passages: PassageHit[],
  space: TfIdf,
  /** The library's answers about the practice the question names (`Library.about`). */
  practice: { entry: LibraryEntry; score: number }[] = [],
  /** The whole library, for answers about the same practice in other words. */
  library: Library | null = null,
): EngineAnswer {
  // a field that describes the submission (its date, the vendor's name, the contact): from the
  // organisation's data items or left to fill in, never from another questionnaire's row
  const field = submissionField(question)
  if (field) return submissionAnswer(question, field, dataItemsOf(library, passages))
  // a question that refers back ('Are the policies and procedures reviewed annually?') says too
  // little to match on its own words: only answers about the practice it inherits, or the same
  // question, count
  const inherited = inheritedPractices(question)
  if (inherited) {
    const about = (match: { entry: LibraryEntry; score: number }) =>
      match.score >= SAME_QUESTION ||
      practicesOf(match.entry.question).some((id) => inherited.includes(id))
    matches = matches.filter(about)
    practice = practice.filter(about)
  }
  const candidates: Candidate[] = []
  const seen = new Set<string>()
  // the same question answered in several files: the answer most of them give goes first, and
  // its confidence says how far they agree; when they are split, the reviewer chooses
  const {
    split,
    strong,
    withheld: disagree,
  } = byAgreement(question, ownFirst(matches.filter((match) => match.score >= REUSE_FLOOR)))
  if (disagree) candidates.push(disagree)
  for (const match of strong) {
    const candidate = libraryCandidate(question, match)
    if (!candidate) continue
    const key = candidateKey(candidate)
    if (seen.has(key)) continue
    seen.add(key)
    candidates.push(withAgreement(candidate, match, split))
    if (candidates.length >= 3) break
  }
  // no answer of the question itself: the organisation's answers about the same practice, in scope
  const moved = candidates.length === 0 && library ? transferAnswer(question, library, space) : null
  if (moved) {
    seen.add(candidateKey(moved))
    candidates.push(moved)
  }
  if (candidates.length < 3) {
    // the organisation's answers to related questions: a Yes among them, and no No, corroborates
    // a passage that states the practice
    // (related: a question close to this one, or one about the same practice; any No among them
    // and the practice is not taken as done)
    const related = matches.filter(
      (match) => match.score >= RELATED_FLOOR && match.score < WEAK_MATCH,
    )
    // (about the practice the question names, when it names one: a Yes about backups does not
    // corroborate a passage about network reviews)
    const named = namedPractices(question.text, question.previous)
    const samePractice = (match: { entry: LibraryEntry }) =>
      !named.length || practicesOf(match.entry.question).some((id) => named.includes(id))
    const relatedYes =
      practice.find((match) => choiceOf(match.entry) === 'yes' && samePractice(match)) ??
      related.find((match) => choiceOf(match.entry) === 'yes' && samePractice(match)) ??
      null
    // the organisation's own No about the practice: a document's Yes does not overrule it
    const contested = [...related, ...practice].some((match) => choiceOf(match.entry) === 'no')
    const corroboration = candidates.length === 0 && !contested ? relatedYes : null
    // a document sentence that states (or denies) the practice the question names, in the scope it asks
    // whose each sentence is: another party's alone is a lead, not the organisation's word
    const parties = partiesFor(passages, ownNamesOf(library))
    const stated =
      candidates.length === 0 || moved ? practiceAnswer(question, passages, space, parties) : null
    const fromDocuments = [
      ...(stated && !(contested && stated.choice && leadingChoice(stated.choice) === 'yes')
        ? [stated]
        : []),
      ...extractive(question, passages, space, stated ? null : corroboration, contested, parties),
    ]
    for (const candidate of fromDocuments) {
      const key = candidateKey(candidate)
      if (seen.has(key)) continue
      seen.add(key)
      candidates.push(candidate)
      if (candidates.length >= 3) break
    }
  }
  // the first candidate is the most likely one: library answers by strength, then passages
  const shape = shapeOf(question.text, question.previous)
  const given = candidates.flatMap((candidate) => {
    const read = withParts(question, candidate)
    return read ? [withinCeiling(calibrated(read, shape))] : []
  })
  if (given.length) return { candidates: given, note: null }
  // no answer: what was looked for, and the nearest passages that speak of the practice, cited
  // for the reviewer who writes the answer
  // a fact of this product that only a sister product's entries hold: theirs is the lead
  const foreign = otherProductFactLead(
    question,
    matches.filter((match) => match.score >= REUSE_FLOOR),
  )
  if (foreign) return { candidates: [foreign], note: null }
  const note = lookedFor(question, space) ?? NO_EVIDENCE
  const nearest = nearestQuotes(question, passages, space, library)
  if (!nearest) return { candidates: [], note }
  const { closest, citations } = nearest
  const lead = { text: '', choice: null, confidence: 0, citations }
  const withheld = withClosest(note, closest, citations.length > 1)
  return { candidates: [{ ...lead, withheld }], note: null }
}
