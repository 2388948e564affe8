import type { PassageLocation } from '../../contract/knowledge.ts'
import type { AnswerPart, Citation } from '../../contract/questionnaires.ts'

/** What the engines take and give: library entries, passages, candidates and answers. */

export interface LibraryEntry {
  source: 'qa' | 'file'
  /** The Q&A item, or the passage. */
  id: number
  fileId: number | null
  title: string
  question: string
  answer: string
  detail: string
  dropdown: string | null
  location: PassageLocation | null
  /** When the answer was last confirmed (a Q&A item's review, a completed questionnaire's date). */
  reviewedAt?: Date | null
  /** When it falls stale, by its review cycle; absent: its age is not known. */
  staleAt?: Date | null
  /**
   * Set when the entry speaks for another product than the one the questionnaire is for (issue
   * 38, products.ts): that product's name, and the questionnaire's.
   */
  otherProduct?: { name: string; forProduct: string } | null
}

export interface Candidate {
  text: string
  choice: string | null
  confidence: number
  citations: Citation[]
  /**
   * Set when the engine declines to pick (the organisation's own records disagree): why, for the
   * reviewer. Such a candidate is stored as 'no answer' with its sources; the answers it declined
   * to choose between follow it as candidates.
   */
  withheld?: string
  /** Why the engine gave this answer, where the reviewer should know before approving it. */
  reason?: string
  /**
   * What the question asks, part by part, and the cited sentence that states each (null: not
   * stated). Given with answers from document sentences; absent where the engine matched a whole
   * question (a library answer) rather than reading the question's parts.
   */
  parts?: AnswerPart[]
  /**
   * The highest confidence the answer may show whatever calibration says: a library answer past
   * its review, or one the library contradicts, is never High.
   */
  ceiling?: number
  /** For an answer from a library entry of known age: its age in days when answered. */
  ageDays?: number
}

/** One part of a question ('vulnerability scanning', 'automated', 'annually') and what states it. */
export type { AnswerPart }
export type PartKind = AnswerPart['kind']

export interface EngineAnswer {
  candidates: Candidate[]
  /** Why there is no answer; null when there are candidates. */
  note: string | null
}

export interface QuestionInput {
  text: string
  vocabulary: string[] | null
  /**
   * The question before it on its sheet: what a question that refers back ('Are the policies and
   * procedures reviewed and updated at least annually?') is about.
   */
  previous?: string | null
  /** The day the question is answered, against which library answers are aged (default: now). */
  asOf?: Date
}

export interface PassageHit {
  id: number
  fileId: number | null
  source: 'file' | 'data' | 'evidence' | 'qa'
  title: string
  text: string
  location: PassageLocation | null
  rank: number
  /** The answer text of a library entry searched like a passage, not a document's. */
  library?: true
  /** The parties of the knowledge base it is from, read from all its passages (parties.ts). */
  parties?: PartyBookRef
}

/** Whose practice each sentence of a knowledge base states (parties.ts). */
export interface PartyReader {
  /** Null: the organisation's own; else the other party (or text) it speaks for. */
  whose(passage: PassageHit, sentence: string): OtherParty | null
  /** The other party a document mostly speaks of, if any. */
  documentParty(fileId: number | null): OtherParty | null
}
export interface PartyBookRef {
  of(known: readonly string[]): PartyReader
}

/** Whose practice a sentence states when it is not the organisation's (parties.ts). */
export interface OtherParty {
  /** As the text writes it ('AWS', 'Amazon Web Services', 'FERPA', 'Section 4.2 of the agreement'). */
  name: string
  /** A law's, a standard's or an agreement's text (what it requires), not a party (what it does). */
  text: boolean
}

/** Why a Yes rests on a document rather than on an answer to this question. */
export const STATED =
  'Yes because a document states this practice. No answer of yours covers this question itself: check the quote before approving.'
export const CORROBORATED =
  'Yes because a document states this practice and you answered Yes to a related question (both cited). No answer of yours covers this question itself: check before approving.'

/** Why a No rests on a document sentence (stated.ts; a Yes says STATED, as every Yes from a document does). */
export const PRACTICE_DENIED =
  'From a document: the quoted sentence says this practice is not in place. No answer of yours covers this question itself: check the quote before approving.'

export const NO_EVIDENCE = 'No answer: the knowledge base holds no evidence for this question.'

/** A document passage row (with its file's name) as a hit. */
export function filePassageHit(
  row: { id: string; file_id: string; name: string; text: string; location: PassageLocation },
  rank: number,
): PassageHit {
  return {
    id: Number(row.id),
    fileId: Number(row.file_id),
    source: 'file',
    title: row.name,
    text: row.text,
    location: row.location,
    rank,
  }
}

/** The source a library entry speaks for: one vote per file or Q&A item. */
export const sourceOf = (entry: LibraryEntry) =>
  entry.source === 'qa' ? `qa${entry.id}` : `file${entry.fileId ?? entry.id}`
