import type { SnapshotFrom } from 'xstate'
import type { uploadQueueMachine } from './upload-queue.machine.ts'

export * from './upload-queue.machine.ts'
export type * from './upload-queue.types.ts'

type Snapshot = SnapshotFrom<typeof uploadQueueMachine>
export const selectItems = (snapshot: Snapshot) => snapshot.context.items
export const selectHasFinished = (snapshot: Snapshot) =>
  snapshot.context.items.some((item) => item.status === 'ready' || item.status === 'failed')
/**
 * The uploads still in the browser (waiting, uploading, or refused before the server had them):
 * once the server has a file, the repository's table shows it with the server's status (issue 30:
 * one list, one status per file).
 */
export const selectInFlight = (snapshot: Snapshot) => inFlight(snapshot.context.items)
const inFlight = (items: Snapshot['context']['items']) => {
  const pending = items.filter((item) => item.fileId === null)
  // the same array while nothing changed, so that the view does not render again
  return pending.length === items.length ? items : pending
}
