export * from './assignment.machine.ts'
export type * from './assignment.types.ts'

import type { SnapshotFrom } from 'xstate'
import type { assignmentMachine } from './assignment.machine.ts'

type Snapshot = SnapshotFrom<typeof assignmentMachine>

/** What the assignment dialog reads, through `useView`. */
export const assignmentView = {
  open: (s: Snapshot) => !s.matches('closed'),
  loading: (s: Snapshot) => s.matches('loading'),
  failed: (s: Snapshot) => s.matches('failed'),
  saving: (s: Snapshot) => s.matches('saving'),
  scope: (s: Snapshot) => s.context.scope,
  target: (s: Snapshot) => s.context.target,
  people: (s: Snapshot) => s.context.people,
  assigneeId: (s: Snapshot) => s.context.assigneeId,
  dueDate: (s: Snapshot) => s.context.dueDate,
  error: (s: Snapshot) => s.context.error,
}
