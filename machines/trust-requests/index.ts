import type { SnapshotFrom } from 'xstate'
import { requestsIn, type trustRequestsMachine } from './trust-requests.machine.ts'

export * from './trust-requests.machine.ts'

type Snapshot = SnapshotFrom<typeof trustRequestsMachine>

/** What the requests part of Settings → Trust centre reads. */
export const trustRequestsView = {
  shown: (s: Snapshot) => requestsIn(s.context.requests, s.context.filter),
  pendingCount: (s: Snapshot) =>
    s.context.requests.filter((request) => request.status === 'pending').length,
  filter: (s: Snapshot) => s.context.filter,
  decision: (s: Snapshot) => s.context.decision,
  error: (s: Snapshot) => s.context.error,
  loading: (s: Snapshot) => s.hasTag('loading') && s.context.requests.length === 0,
  busy: (s: Snapshot) => s.hasTag('busy'),
  failed: (s: Snapshot) => s.matches('failed'),
}
