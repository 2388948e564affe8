import type { SnapshotFrom } from 'xstate'
import type { knowledgeBaseMachine } from './knowledge-base.machine.ts'

export * from './knowledge-base.machine.ts'

type Snapshot = SnapshotFrom<typeof knowledgeBaseMachine>
export const selectTab = (snapshot: Snapshot) => snapshot.context.tab
export const selectVersion = (snapshot: Snapshot) => snapshot.context.version
export const selectFreshness = (snapshot: Snapshot) => snapshot.context.freshness
