import type { SnapshotFrom } from 'xstate'
import type { planUsageMachine } from './plan-usage.machine.ts'

export { type PlanUsage, planUsageMachine } from './plan-usage.machine.ts'

type Snapshot = SnapshotFrom<typeof planUsageMachine>

/** What the plan section reads, through `useView`. */
export const planUsageView = {
  plan: (snapshot: Snapshot) => snapshot.context.plan,
  failed: (snapshot: Snapshot) => snapshot.matches('failed'),
  loading: (snapshot: Snapshot) => snapshot.hasTag('loading'),
}

/** The share of a limit used, 0 to 1 (no limit: 0). */
export const shareOf = (used: number, max: number | null) =>
  max === null || max <= 0 ? 0 : Math.min(1, used / max)
