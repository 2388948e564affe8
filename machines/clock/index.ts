import type { SnapshotFrom } from 'xstate'
import type { clockMachine } from './clock.machine.ts'

export * from './clock.machine.ts'

type Snapshot = SnapshotFrom<typeof clockMachine>
/** The time the clock last read, in milliseconds. */
export const selectNow = (snapshot: Snapshot) => snapshot.context.now
