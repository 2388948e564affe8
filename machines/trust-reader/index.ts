import type { SnapshotFrom } from 'xstate'
import type { trustReaderMachine } from './trust-reader.machine.ts'

export * from './trust-reader.machine.ts'

type Snapshot = SnapshotFrom<typeof trustReaderMachine>

/** What the trust centre's page reads of its visitor's session. */
export const trustReaderView = {
  reader: (s: Snapshot) => s.context.reader,
  error: (s: Snapshot) => s.context.error,
  linkToOpen: (s: Snapshot) => s.matches('linkToOpen') || s.matches('opening'),
  opening: (s: Snapshot) => s.hasTag('busy'),
  ended: (s: Snapshot) => s.matches('ended'),
  linkFailed: (s: Snapshot) => s.matches('linkFailed'),
}
