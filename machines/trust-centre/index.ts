import type { SnapshotFrom } from 'xstate'
import type { trustCentreMachine } from './trust-centre.machine.ts'

export * from './trust-centre.machine.ts'

type Snapshot = SnapshotFrom<typeof trustCentreMachine>

/** What the trust centre's page reads in the browser. */
export const trustCentreView = {
  page: (s: Snapshot) => s.context.page,
  error: (s: Snapshot) => s.context.error,
  loading: (s: Snapshot) => s.matches('loading') && s.context.page === null,
  unavailable: (s: Snapshot) => s.matches('unavailable'),
  failed: (s: Snapshot) => s.matches('failed'),
}
