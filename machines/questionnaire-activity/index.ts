export * from './questionnaire-activity.machine.ts'

import type { SnapshotFrom } from 'xstate'
import type { questionnaireActivityMachine } from './questionnaire-activity.machine.ts'

type Snapshot = SnapshotFrom<typeof questionnaireActivityMachine>

/** What the history drawer's activity reads, through `useView`. */
export const activityView = {
  entries: (s: Snapshot) => s.context.entries,
  loading: (s: Snapshot) => s.matches('loading'),
  error: (s: Snapshot) => s.context.error,
}
