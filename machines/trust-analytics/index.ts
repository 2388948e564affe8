import type { SnapshotFrom } from 'xstate'
import type { trustAnalyticsMachine } from './trust-analytics.machine.ts'

export * from './trust-analytics.machine.ts'

type Snapshot = SnapshotFrom<typeof trustAnalyticsMachine>

/** What the analytics part of Settings → Trust centre reads. */
export const trustAnalyticsView = {
  days: (s: Snapshot) => s.context.days,
  analytics: (s: Snapshot) => s.context.analytics,
  error: (s: Snapshot) => s.context.error,
  loading: (s: Snapshot) => s.hasTag('loading'),
  failed: (s: Snapshot) => s.matches('failed'),
}
