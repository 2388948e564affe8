import type { SnapshotFrom } from 'xstate'
import type { trustContentMachine } from './trust-content.machine.ts'

export * from './trust-content.machine.ts'

type Snapshot = SnapshotFrom<typeof trustContentMachine>

/** What the "What is public" part of Settings → Trust centre reads. */
export const trustContentView = {
  items: (s: Snapshot) => s.context.items,
  pending: (s: Snapshot) => s.context.pending,
  error: (s: Snapshot) => s.context.error,
  loading: (s: Snapshot) => s.hasTag('loading'),
  failed: (s: Snapshot) => s.matches('failed'),
}
