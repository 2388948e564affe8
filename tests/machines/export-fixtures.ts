import { fromPromise } from 'xstate'
import type { CheckFilledFile } from '../../contract/questionnaires.ts'
import type { ExportRun, StartExportInput } from '../../machines/questionnaire-export/index.ts'

/** The export machine's checkFilled actor for a questionnaire that has no filled file yet. */
export const noFilledFileYet = () =>
  fromPromise<CheckFilledFile, { id: number }>(async () => ({
    exists: false,
    current: false,
    filled_file: null,
    approved_only_default: false,
  }))

/** The export machine's startExport actor, each start answered by `answer`. */
export const exportStarts = (answer: (input: StartExportInput) => Promise<ExportRun>) =>
  fromPromise<ExportRun, StartExportInput>(({ input }) => answer(input))
