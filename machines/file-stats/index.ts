import type { SnapshotFrom } from 'xstate'
import type { fileStatsMachine } from './file-stats.machine.ts'

export * from './file-stats.machine.ts'

export const selectStats = (snapshot: SnapshotFrom<typeof fileStatsMachine>) =>
  snapshot.context.stats
