export * from './question-review.machine.ts'

import type { SnapshotFrom } from 'xstate'
import type { questionReviewMachine } from './question-review.machine.ts'

type Snapshot = SnapshotFrom<typeof questionReviewMachine>

/** What the review block of the answer panel reads, through `useView`. */
export const questionReviewView = {
  marking: (s: Snapshot) => s.matches('marking'),
  requesting: (s: Snapshot) => s.matches('requesting') || s.matches('sending'),
  sending: (s: Snapshot) => s.matches('sending'),
  comment: (s: Snapshot) => s.context.comment,
  error: (s: Snapshot) => s.context.error,
}
