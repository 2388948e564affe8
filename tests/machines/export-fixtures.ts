import { fromPromise } from 'xstate'
import type { CheckFilledFile } from '../../contract/questionnaires.ts'

/** The export machine's checkFilled actor for a questionnaire that has no filled file yet. */
export const noFilledFileYet = () =>
  fromPromise<CheckFilledFile, { id: number }>(async () => ({
    exists: false,
    current: false,
    filled_file: null,
    approved_only_default: false,
  }))
