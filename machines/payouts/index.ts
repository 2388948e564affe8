import type { SnapshotFrom } from 'xstate'
import type { payoutsMachine } from './payouts.machine.ts'

export { payoutsMachine } from './payouts.machine.ts'
export type * from './payouts.types.ts'

type Snapshot = SnapshotFrom<typeof payoutsMachine>

/** Which screen the landing page shows. */
export const selectScreen = (snapshot: Snapshot) =>
  snapshot.matches('success') ? 'success' : snapshot.matches('error') ? 'error' : 'loading'
export type PayoutsScreen = ReturnType<typeof selectScreen>
export const selectTierName = (snapshot: Snapshot) => snapshot.context.tierName
