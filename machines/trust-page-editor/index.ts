import type { SnapshotFrom } from 'xstate'
import { trustFormChanged, type trustPageEditorMachine } from './trust-page-editor.machine.ts'

export * from './trust-page-editor.machine.ts'

type Snapshot = SnapshotFrom<typeof trustPageEditorMachine>

/** What Settings → Trust centre's page editor reads, through `useView`. */
export const trustPageEditorView = {
  form: (s: Snapshot) => s.context.form,
  saved: (s: Snapshot) => s.context.saved,
  error: (s: Snapshot) => s.context.error,
  changed: (s: Snapshot) => trustFormChanged(s.context),
  loading: (s: Snapshot) => s.hasTag('loading'),
  busy: (s: Snapshot) => s.hasTag('busy'),
  preview: (s: Snapshot) => s.hasTag('preview'),
  justSaved: (s: Snapshot) => s.matches('saved'),
  failed: (s: Snapshot) => s.matches('failed'),
}
