import type { SnapshotFrom } from 'xstate'
import type { sessionMachine } from './session.machine.ts'

export { sessionMachine } from './session.machine.ts'
export type * from './session.types.ts'

type Snapshot = SnapshotFrom<typeof sessionMachine>

export const selectIsLoading = (snapshot: Snapshot) => snapshot.hasTag('loading')
export const selectIsAuthenticated = (snapshot: Snapshot) => snapshot.matches('authenticated')
/** The user the access token carries. */
export const selectUser = (snapshot: Snapshot) => snapshot.context.user
/** GET profile/ (user and organization), or null until it loads or when it failed. */
export const selectProfile = (snapshot: Snapshot) => snapshot.context.profile
/** The last session ended because it expired: the login screen says so. */
export const selectSessionExpired = (snapshot: Snapshot) => snapshot.context.endedBy === 'expired'
