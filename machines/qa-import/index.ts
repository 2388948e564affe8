export * from './qa-import.machine.ts'
export type * from './qa-import.types.ts'

import type { SnapshotFrom } from 'xstate'
import type { qaImportMachine } from './qa-import.machine.ts'

type Snapshot = SnapshotFrom<typeof qaImportMachine>

/** What the import dialog reads, through `useView`. */
export const qaImportView = {
  open: (s: Snapshot) => !s.matches('closed'),
  /** The dialog's step: choosing a file, mapping its columns, or what was imported. */
  step: (s: Snapshot) =>
    s.matches('mapping') || s.matches('importing')
      ? 'mapping'
      : s.matches('done')
        ? 'done'
        : 'picking',
  /** The file is read for its sheets and columns. */
  loading: (s: Snapshot) => s.hasTag('loading'),
  importing: (s: Snapshot) => s.matches('importing'),
  previewing: (s: Snapshot) => s.matches('previewing'),
  file: (s: Snapshot) => s.context.file,
  preview: (s: Snapshot) => s.context.preview,
  choice: (s: Snapshot) => s.context.choice,
  result: (s: Snapshot) => s.context.result,
  error: (s: Snapshot) => s.context.error,
}
