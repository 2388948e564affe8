import type { SnapshotFrom } from 'xstate'
import type { magicLinkMachine } from './magic-link.machine.ts'

export { magicLinkMachine } from './magic-link.machine.ts'
export type * from './magic-link.types.ts'

type Snapshot = SnapshotFrom<typeof magicLinkMachine>

/** Which screen shows. */
export const selectScreen = (snapshot: Snapshot) =>
  snapshot.matches('failed') ? 'failed' : snapshot.status === 'done' ? 'done' : 'signingIn'
export type MagicLinkScreen = ReturnType<typeof selectScreen>

export const selectError = (snapshot: Snapshot) => snapshot.context.error
