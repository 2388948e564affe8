export * from './carry-forward.machine.ts'

import type { SnapshotFrom } from 'xstate'
import type { carryForwardMachine } from './carry-forward.machine.ts'

type Snapshot = SnapshotFrom<typeof carryForwardMachine>

/** What the carry-forward offer reads, through `useView`. */
export const carryForwardView = {
  /** Offered, carrying, failed or carried: the offer (or its result) is on the page. */
  shown: (s: Snapshot) =>
    s.matches('offered') || s.matches('carrying') || s.matches('failed') || s.matches('carried'),
  match: (s: Snapshot) => s.context.match,
  busy: (s: Snapshot) => s.hasTag('busy'),
  error: (s: Snapshot) => (s.matches('failed') ? s.context.error : null),
  result: (s: Snapshot) => (s.matches('carried') ? s.context.result : null),
}
