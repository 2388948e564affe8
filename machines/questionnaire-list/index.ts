export * from './filters.ts'
export * from './questionnaire-list.machine.ts'
export type * from './questionnaire-list.types.ts'

import type { SnapshotFrom } from 'xstate'
import { isFiltered } from './filters.ts'
import type { questionnaireListMachine } from './questionnaire-list.machine.ts'

type Snapshot = SnapshotFrom<typeof questionnaireListMachine>
export const selectItems = (s: Snapshot) => s.context.items
export const selectSelected = (s: Snapshot) => s.context.selected
export const selectUploads = (s: Snapshot) => s.context.uploads
export const selectPendingDelete = (s: Snapshot) => s.context.pendingDelete
export const selectIsConfirming = (s: Snapshot) => !s.matches({ deletion: 'idle' })
export const selectIsDeleting = (s: Snapshot) => s.matches({ deletion: 'deleting' })
export const selectIsLoading = (s: Snapshot) => s.hasTag('loading') && !s.context.loaded
export const selectListError = (s: Snapshot) =>
  s.matches({ list: 'failed' }) ? s.context.error : null

/** What questionnaires-page reads, through `useView`. */
export const questionnaireListView = {
  items: selectItems,
  selected: selectSelected,
  uploads: selectUploads,
  pendingDelete: selectPendingDelete,
  confirming: selectIsConfirming,
  deleting: selectIsDeleting,
  loading: selectIsLoading,
  error: selectListError,
  filters: (s: Snapshot) => s.context.filters,
  filtered: (s: Snapshot) => isFiltered(s.context.filters),
  /** The product the questionnaires dropped next are for (null: all products). */
  uploadProduct: (s: Snapshot) => s.context.productId,
  /** The customer, due date and owner asked for the questionnaires dropped next (issue 39). */
  uploadWork: (s: Snapshot) => s.context.uploadWork,
}
