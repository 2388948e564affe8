import type { SnapshotFrom } from 'xstate'
import type { legalPageMachine } from './legal-page.machine.ts'

export * from './legal-page.machine.ts'

type Snapshot = SnapshotFrom<typeof legalPageMachine>

/** What the legal page reads, through `useView`. */
export const legalPageView = {
  loading: (s: Snapshot) => s.matches('loading'),
  document: (s: Snapshot) => s.context.document,
  error: (s: Snapshot) => s.context.error,
}
