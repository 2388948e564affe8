export * from './questionnaire-export.machine.ts'

import type { SnapshotFrom } from 'xstate'
import type { questionnaireExportMachine } from './questionnaire-export.machine.ts'

type Snapshot = SnapshotFrom<typeof questionnaireExportMachine>
export const selectLatest = (s: Snapshot) => s.context.latest
export const selectExportBusy = (s: Snapshot) => s.hasTag('busy')
export const selectExportFormat = (s: Snapshot) => s.context.format
export const selectExportError = (s: Snapshot) => (s.matches('failed') ? s.context.error : null)

/** What workspace-header reads, through `useView`. */
export const exportMenuView = {
  latest: selectLatest,
  exporting: selectExportBusy,
  exportFormat: selectExportFormat,
}
