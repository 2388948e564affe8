import type { SnapshotFrom } from 'xstate'
import type { fileListMachine } from './file-list.machine.ts'

export * from './file-list.machine.ts'

type Snapshot = SnapshotFrom<typeof fileListMachine>
export const selectFiles = (snapshot: Snapshot) => snapshot.context.files
export const selectCount = (snapshot: Snapshot) => snapshot.context.count
export const selectQuery = (snapshot: Snapshot) => snapshot.context.query
export const selectSelected = (snapshot: Snapshot) => snapshot.context.selected
export const selectPendingDelete = (snapshot: Snapshot) => snapshot.context.pendingDelete
export const selectIsConfirming = (snapshot: Snapshot) =>
  snapshot.matches('confirming') || snapshot.matches('deleting')
export const selectIsLoading = (snapshot: Snapshot) =>
  snapshot.hasTag('loading') && !snapshot.context.loaded
export const selectIsBusy = (snapshot: Snapshot) => snapshot.hasTag('busy')
export const selectError = (snapshot: Snapshot) =>
  snapshot.matches('failed') ? snapshot.context.error : null
export const selectTagging = (snapshot: Snapshot) => snapshot.context.tagging

/** What repository-page reads, through `useView`. */
export const fileListView = {
  files: selectFiles,
  count: selectCount,
  query: selectQuery,
  selected: selectSelected,
  pendingDelete: selectPendingDelete,
  confirming: selectIsConfirming,
  deleting: (s: Snapshot) => s.matches('deleting'),
  loading: selectIsLoading,
  busy: selectIsBusy,
  listError: selectError,
  tagging: selectTagging,
}
