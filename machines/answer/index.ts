export * from './answer.machine.ts'
export * from './merge.ts'

import type { SnapshotFrom } from 'xstate'
import { missingParts } from '../../contract/questionnaires.ts'
import type { answerMachine } from './answer.machine.ts'

type Snapshot = SnapshotFrom<typeof answerMachine>
export const selectRow = (s: Snapshot) => s.context.row
export const selectDraft = (s: Snapshot) => s.context.draft
export const selectAnswerError = (s: Snapshot) => s.context.error
export const selectIsEditing = (s: Snapshot) => s.matches('editing')
export const selectIsBusy = (s: Snapshot) =>
  s.matches('saving') ||
  s.matches('approving') ||
  s.matches('unapproving') ||
  s.matches('regenerating') ||
  s.matches('confirmingSource')
export const selectIsFailed = (s: Snapshot) => s.matches('failed')
export const selectIsRegenerating = (s: Snapshot) => s.matches('regenerating')

/** What answer-panel reads, through `useView`. */
export const answerPanelView = {
  row: selectRow,
  error: selectAnswerError,
  editing: selectIsEditing,
  saving: selectIsBusy,
  failed: selectIsFailed,
  approved: (s: Snapshot) => s.matches('approved') || s.matches('approving'),
  regenerating: selectIsRegenerating,
  savingLibrary: (s: Snapshot) => s.matches('savingToLibrary'),
  confirmingSource: (s: Snapshot) => s.matches('confirmingSource'),
  /** A save ran into someone else's change: theirs and the draft, to merge (issue 29). */
  theirs: (s: Snapshot) => (s.matches('conflicted') ? s.context.theirs : null),
  draft: selectDraft,
  /** What the last action found worth saying (a regeneration with nothing new). */
  notice: (s: Snapshot) => s.context.notice,
  /** What the answer lacks that the customer's cells take (issue 39), shown before approving. */
  missing: (s: Snapshot) => missingParts(s.context.row.cell_needs, s.context.row.answer),
}
