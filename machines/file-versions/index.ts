import type { SnapshotFrom } from 'xstate'
import type { fileVersionsMachine } from './file-versions.machine.ts'

export * from './file-versions.machine.ts'

type Snapshot = SnapshotFrom<typeof fileVersionsMachine>

/** What the history dialog and the repository's rows read, through `useView`. */
export const fileVersionsView = {
  open: (s: Snapshot) => s.matches('history'),
  file: (s: Snapshot) => s.context.file,
  versions: (s: Snapshot) => s.context.versions,
  loading: (s: Snapshot) => s.hasTag('loading'),
  error: (s: Snapshot) => (s.matches({ history: 'failed' }) ? s.context.error : null),
  replacing: (s: Snapshot) => s.hasTag('busy'),
}
