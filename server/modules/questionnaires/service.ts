import { createAnalysis } from './analysis.ts'
import { createHistory } from './history.ts'
import { createReading } from './reading.ts'
import { createRecords } from './records.ts'
import { createReview } from './review.ts'
import type { QuestionnaireDeps } from './shared.ts'
import { createAnswerWrites } from './writes.ts'

export * from './shared.ts'

/**
 * The questionnaire area: records (list, upload, delete), analysis, reading answers, review
 * operations and the history, each in a file of its own; this composes them into one service.
 */
export function createQuestionnaireService(deps: QuestionnaireDeps) {
  // analysis needs the records, and the records run an analysis in-process without a job runner
  const records = createRecords(deps, (id) => analysis.analyse(id))
  const analysis = createAnalysis(deps, records)
  const reading = createReading(deps, records)
  const writes = createAnswerWrites(deps)
  const history = createHistory(deps, records, reading, writes)
  return {
    ...records,
    ...reading,
    ...analysis,
    ...history,
    ...createReview(writes, history, reading),
    writeAnswer: writes.writeAnswer,
    checkAnswerLimit: writes.checkAnswerLimit,
    answerApproved: writes.answerApproved,
    questionApproved: writes.questionApproved,
  }
}

export type QuestionnaireService = ReturnType<typeof createQuestionnaireService>
