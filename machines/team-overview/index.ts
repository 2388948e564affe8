export * from './team-overview.machine.ts'

import type { SnapshotFrom } from 'xstate'
import type { teamOverviewMachine } from './team-overview.machine.ts'

type Snapshot = SnapshotFrom<typeof teamOverviewMachine>

/** What the home page's team section reads, through `useView`. */
export const teamOverviewView = {
  overdue: (s: Snapshot) => s.context.overview.overdue,
  activity: (s: Snapshot) => s.context.overview.activity,
  loading: (s: Snapshot) => s.matches('loading'),
  error: (s: Snapshot) => s.context.error,
}
