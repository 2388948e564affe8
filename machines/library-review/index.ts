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
