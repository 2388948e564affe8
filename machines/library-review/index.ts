import type { SnapshotFrom } from 'xstate'
import type { QaItem } from '../../contract/knowledge.ts'
import { can, type Role } from '../../contract/roles.ts'
import type { libraryReviewMachine } from './library-review.machine.ts'

export * from './library-review.machine.ts'

type Snapshot = SnapshotFrom<typeof libraryReviewMachine>

/** What the Q&A rows read, through `useView`. */
export const libraryReviewView = {
  /** The item whose confirmation runs, else null. */
  busyId: (s: Snapshot) => (s.hasTag('busy') ? (s.context.item?.id ?? null) : null),
  /** The item whose confirmation failed, and why. */
  failedId: (s: Snapshot) => (s.matches('failed') ? (s.context.item?.id ?? null) : null),
  error: (s: Snapshot) => (s.matches('failed') ? s.context.error : null),
}

/**
 * Who may confirm an answer: its owner, or someone who manages the library. With no profile yet
 * (`user` null) every answer offers it, as other views do, and the server decides.
 */
export const canReview = (item: QaItem, user: { id: number; role: Role } | null) =>
  user === null || item.owner_id === user.id || can(user.role, 'library.manage')

/**
 * What a Q&A item's row offers, ready for the view: whether the person may confirm it, whether
 * its confirmation runs or failed (and why), and when it falls or fell stale, in words to which
 * the view adds the day.
 */
export function qaRow(
  item: QaItem,
  options: {
    user: { id: number; role: Role } | null
    review: { busyId: number | null; failedId: number | null; error: string | null }
  },
) {
  return {
    canReview: canReview(item, options.user),
    reviewing: options.review.busyId === item.id,
    error: options.review.failedId === item.id ? options.review.error : null,
    /** "Stale since" or "Review by", before the review-due day. */
    dueLead: item.freshness === 'stale' ? 'Stale since' : 'Review by',
    /** The owner's name, else null for "No owner". */
    ownerName: item.owner?.name ?? null,
    reviewedBy: item.reviewed_by ? ` by ${item.reviewed_by.name}` : '',
  }
}
export type QaRowView = ReturnType<typeof qaRow>
