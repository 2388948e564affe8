import type { SnapshotFrom } from 'xstate'
import type { workDetailsMachine } from './work-details.machine.ts'

export * from './work-details.machine.ts'
export * from './work-values.ts'

type Snapshot = SnapshotFrom<typeof workDetailsMachine>

/** What the work dialog reads, through `useView`. */
export const workDetailsView = {
  open: (s: Snapshot) => !s.matches('closed'),
  saving: (s: Snapshot) => s.matches('saving'),
  questionnaire: (s: Snapshot) => s.context.questionnaire,
  values: (s: Snapshot) => s.context.values,
  errors: (s: Snapshot) => s.context.errors,
  failure: (s: Snapshot) => s.context.failure,
}
