export * from './questionnaire-export.machine.ts'
export type * from './questionnaire-export.types.ts'

import type { SnapshotFrom } from 'xstate'
import type { questionnaireExportMachine } from './questionnaire-export.machine.ts'

type Snapshot = SnapshotFrom<typeof questionnaireExportMachine>
export const selectLatest = (s: Snapshot) => s.context.latest
export const selectExportBusy = (s: Snapshot) => s.hasTag('busy')
export const selectExportFormat = (s: Snapshot) => s.context.format
export const selectExportError = (s: Snapshot) => (s.matches('failed') ? s.context.error : null)
/** The export run being waited for, while it is queued or running (its progress and label). */
export const selectExportRun = (s: Snapshot) =>
  s.hasTag('busy') && (s.context.run?.status === 'queued' || s.context.run?.status === 'running')
    ? s.context.run
    : null

/** What workspace-header reads, through `useView`. */
export const exportMenuView = {
  latest: selectLatest,
  exporting: selectExportBusy,
  exportFormat: selectExportFormat,
  run: selectExportRun,
  /** Issue 39: whether the organisation fills files with approved answers only by default. */
  approvedOnlyDefault: (s: Snapshot) => s.context.approvedOnlyDefault,
}
