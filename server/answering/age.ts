import { daysBetween } from '../../contract/freshness.ts'
import type { Candidate, LibraryEntry } from './types.ts'

/**
 * How old a library answer is (issue 28). A Q&A item was last confirmed at its review; a row of a
 * completed questionnaire on the questionnaire's date. An answer past its review cycle is still
 * given, at the confidence measured for answers of its age (issue 38: the calibration's age
 * bands), and says how old it is; where the library's own answers to a question disagree, the
 * newest reviewed one is used, never High, and the answer says so.
 */

/** The highest confidence of an answer that rests on a contested library answer. */
export const AGED_CEILING = 0.79

export const STALE_PREFIX = 'From your library, past its review:'
export const CONFLICT_PREFIX = 'Your library disagrees on this question:'

const day = (at: Date) => at.toISOString().slice(0, 10)

/** Is the entry past its review cycle at `asOf`? False when its age is not known. */
export const isStale = (entry: LibraryEntry, asOf: Date) =>
  Boolean(entry.staleAt && entry.staleAt.getTime() <= asOf.getTime())

/** Why an answer from a stale entry is shown as it is, for the reviewer. */
export function staleReason(entry: LibraryEntry, asOf: Date): string | null {
  if (!entry.reviewedAt || !isStale(entry, asOf)) return null
  const days = daysBetween(entry.reviewedAt, asOf)
  return `${STALE_PREFIX} last reviewed ${day(entry.reviewedAt)} (${days} days ago), past its review cycle. Confirm it is still true before approving.`
}

/** The most recently reviewed of entries that disagree; null when any has no known age. */
export function newestOf<T extends { entry: LibraryEntry }>(matches: T[]): T | null {
  if (!matches.length || matches.some((match) => !match.entry.reviewedAt)) return null
  return matches.reduce((best, match) =>
    (match.entry.reviewedAt as Date) > (best.entry.reviewedAt as Date) ? match : best,
  )
}

/** Why the newer of two disagreeing library answers is used. */
export function conflictReason(
  used: { entry: LibraryEntry; choice: string },
  older: { entry: LibraryEntry; choice: string }[],
): string {
  const others = older
    .map(({ entry, choice }) => `${choice} (reviewed ${day(entry.reviewedAt as Date)})`)
    .join(', ')
  return `${CONFLICT_PREFIX} the newest answer, ${used.choice} (reviewed ${day(used.entry.reviewedAt as Date)}), is used; older ones say ${others}. Resolve it in library health.`
}

/** A candidate with the age of the entry it rests on, and with its reason when the entry is stale. */
export function aged(candidate: Candidate, entry: LibraryEntry, asOf: Date): Candidate {
  if (entry.reviewedAt) candidate = { ...candidate, ageDays: daysBetween(entry.reviewedAt, asOf) }
  const reason = staleReason(entry, asOf)
  if (!reason) return candidate
  // issue 38: the confidence stays the calibrated probability of an answer of its age (its age
  // band's points); being past its review is a separate signal that gates what may be done with
  // it (it says so, and goes to its owner's review queue), not a cap on what it is worth.
  // A reason the answer already has names its kind (transferred): the age is shown beside it.
  return candidate.reason ? candidate : { ...candidate, reason }
}

/** A candidate's confidence held to its ceiling, after calibration. */
export const withinCeiling = (candidate: Candidate): Candidate =>
  candidate.ceiling !== undefined && candidate.confidence > candidate.ceiling
    ? { ...candidate, confidence: candidate.ceiling }
    : candidate
