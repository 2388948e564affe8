import type { SnapshotFrom } from 'xstate'
import type { trustRequestMachine } from './trust-request.machine.ts'

export * from './trust-request.machine.ts'

type Snapshot = SnapshotFrom<typeof trustRequestMachine>

/** What the trust centre's request form reads. */
export const trustRequestView = {
  form: (s: Snapshot) => s.context.form,
  error: (s: Snapshot) => s.context.error,
  outcome: (s: Snapshot) => s.context.outcome,
  open: (s: Snapshot) => s.matches('editing') || s.matches('sending'),
  sending: (s: Snapshot) => s.hasTag('busy'),
  sent: (s: Snapshot) => s.matches('sent'),
}
