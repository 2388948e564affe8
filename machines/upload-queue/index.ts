import type { SnapshotFrom } from 'xstate'
import type { uploadQueueMachine } from './upload-queue.machine.ts'

export * from './upload-queue.machine.ts'

type Snapshot = SnapshotFrom<typeof uploadQueueMachine>
export const selectItems = (snapshot: Snapshot) => snapshot.context.items
export const selectHasFinished = (snapshot: Snapshot) =>
  snapshot.context.items.some((item) => item.status === 'ready' || item.status === 'failed')
