import type { SnapshotFrom } from 'xstate'
import type { sectionPreviewMachine } from './section-preview.machine.ts'

export * from './section-preview.machine.ts'

type Snapshot = SnapshotFrom<typeof sectionPreviewMachine>

/** What the section preview dialog reads, through `useView`. */
export const sectionPreviewView = {
  open: (s: Snapshot) => !s.matches('idle'),
  loading: (s: Snapshot) => s.matches('loading'),
  request: (s: Snapshot) => s.context.request,
  preview: (s: Snapshot) => s.context.preview,
  error: (s: Snapshot) => s.context.error,
}
