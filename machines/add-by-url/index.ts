import type { SnapshotFrom } from 'xstate'
import type { addByUrlMachine } from './add-by-url.machine.ts'

export * from './add-by-url.machine.ts'

type Snapshot = SnapshotFrom<typeof addByUrlMachine>

/** What file-dialogs reads, through `useView`. */
export const addByUrlView = {
  open: (s: Snapshot) => !s.matches('closed'),
  submitting: (s: Snapshot) => s.hasTag('loading'),
  url: (s: Snapshot) => s.context.url,
  tags: (s: Snapshot) => s.context.tags,
  error: (s: Snapshot) => s.context.error,
}
