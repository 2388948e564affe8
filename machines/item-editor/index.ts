import type { SnapshotFrom } from 'xstate'
import type { itemEditorMachine } from './item-editor.machine.ts'

export * from './item-editor.machine.ts'

type Snapshot = SnapshotFrom<typeof itemEditorMachine>

/** What item-editor-dialog reads, through `useView`. */
export const itemEditorView = {
  editing: (s: Snapshot) => s.matches('editing') || s.matches('saving'),
  confirming: (s: Snapshot) => s.matches('confirmingDelete') || s.matches('deleting'),
  deleting: (s: Snapshot) => s.matches('deleting'),
  saving: (s: Snapshot) => s.matches('saving'),
  mode: (s: Snapshot) => s.context.mode,
  id: (s: Snapshot) => s.context.id,
  values: (s: Snapshot) => s.context.values,
  errors: (s: Snapshot) => s.context.errors,
  failure: (s: Snapshot) => s.context.failure,
  owner: (s: Snapshot) => s.context.owner,
  ownCycle: (s: Snapshot) => s.context.ownCycle,
}
