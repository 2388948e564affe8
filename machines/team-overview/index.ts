export * from './team-overview.machine.ts'

import type { SnapshotFrom } from 'xstate'
import type { teamOverviewMachine } from './team-overview.machine.ts'

type Snapshot = SnapshotFrom<typeof teamOverviewMachine>

/** What the home page's team section reads, through `useView`. */
export const teamOverviewView = {
  overview: (s: Snapshot) => s.context.overview,
  overdue: (s: Snapshot) => s.context.overview.overdue,
  inProgress: (s: Snapshot) => s.context.overview.in_progress,
  inProgressCount: (s: Snapshot) => s.context.overview.in_progress_count,
  review: (s: Snapshot) => s.context.overview.review,
  firstSteps: (s: Snapshot) => s.context.overview.first_steps,
  /** Every first step is taken: home stops offering them. */
  started: (s: Snapshot) => Object.values(s.context.overview.first_steps).every(Boolean),
  activity: (s: Snapshot) => s.context.overview.activity,
  loading: (s: Snapshot) => s.matches('loading'),
  error: (s: Snapshot) => s.context.error,
}
