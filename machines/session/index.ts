import type { SnapshotFrom } from 'xstate'
import type { sessionMachine } from './session.machine.ts'

export { sessionMachine } from './session.machine.ts'
export type * from './session.types.ts'

type Snapshot = SnapshotFrom<typeof sessionMachine>

export const selectIsLoading = (snapshot: Snapshot) => snapshot.hasTag('loading')
export const selectIsAuthenticated = (snapshot: Snapshot) => snapshot.matches('authenticated')
export const selectUser = (snapshot: Snapshot) => snapshot.context.user
