import * as z from 'zod/mini'

/**
 * How old a library answer is, measured against its review cycle (issue 28): an answer is fresh
 * after a review, due in the last 30 days of its cycle, and stale once the cycle has passed. The
 * server states each item's freshness; the client only shows it.
 */

export const FRESHNESS_STATES = ['fresh', 'due', 'stale'] as const
export type Freshness = (typeof FRESHNESS_STATES)[number]

/** An organisation's cycle unless it sets its own: 12 months. */
export const DEFAULT_REVIEW_CYCLE_DAYS = 365
/** An answer falls due this many days before its cycle ends. */
export const DUE_WINDOW_DAYS = 30
export const MAX_REVIEW_CYCLE_DAYS = 3_650

const DAY_MS = 86_400_000

export const reviewCycleDaysSchema = z
  .number()
  .check(
    z.int('The review cycle is a whole number of days'),
    z.minimum(1, 'The review cycle is at least 1 day'),
    z.maximum(MAX_REVIEW_CYCLE_DAYS, 'The review cycle is at most 3,650 days (10 years)'),
  )

/** When an answer reviewed at `reviewedAt` falls stale. */
export const reviewDueAt = (reviewedAt: Date, cycleDays: number) =>
  new Date(reviewedAt.getTime() + cycleDays * DAY_MS)

export function freshnessOf(reviewedAt: Date, cycleDays: number, now = new Date()): Freshness {
  const due = reviewDueAt(reviewedAt, cycleDays).getTime()
  if (now.getTime() >= due) return 'stale'
  if (now.getTime() >= due - DUE_WINDOW_DAYS * DAY_MS) return 'due'
  return 'fresh'
}

/** Whole days between two moments (a review's age). */
export const daysBetween = (from: Date, to: Date) =>
  Math.max(0, Math.floor((to.getTime() - from.getTime()) / DAY_MS))

export const FRESHNESS_LABELS: Record<Freshness, string> = {
  fresh: 'Fresh',
  due: 'Review due',
  stale: 'Stale',
}

export const FRESHNESS_TEXTS = {
  futureReview: 'The review date cannot be in the future',
  badReviewDate: 'Enter the review date as YYYY-MM-DD or an ISO date and time',
  ownerNotMember:
    'The owner must be an active person of your organisation who can manage the library',
  /** The review cycle field, as typed in Settings → Organisation. */
  cycleNotNumber: 'Enter the review cycle as a number of days',
  cycleDays: 'Enter a number of days',
} as const
