import type { Answer, QuestionRow } from '../../contract/questionnaires.ts'
import type { AnswerContext, Draft, StaleSaveError } from './answer.types.ts'

/**
 * Merging a save that ran into someone else's change (issue 29): the answer machine holds theirs
 * beside the draft, then takes theirs or saves the draft over it. Each returns the context change.
 */

export const draftOf = (row: QuestionRow): Draft => ({
  text: row.answer.text,
  choice: row.answer.choice,
  comment: row.answer.comment,
})

/** Their answer, when the error is a save that ran into someone else's change. */
export const staleOf = (error: unknown): Answer | null => {
  const current = (error as Partial<StaleSaveError> | null)?.current
  return current && typeof current === 'object' && 'version' in current ? current : null
}

/** The save ran into someone else's change: keep the draft, hold theirs beside it. */
export const holdTheirs = (context: AnswerContext, error: unknown): Partial<AnswerContext> => ({
  theirs: staleOf(error),
  row: context.previous ?? context.row,
  previous: null,
  error: null,
})

/** Theirs is taken: the row becomes it, the draft is dropped. */
export const takeTheirs = (context: AnswerContext): Partial<AnswerContext> => {
  const theirs = context.theirs
  if (!theirs) return {}
  const row: QuestionRow = { ...context.row, answer: theirs }
  return { row, draft: draftOf(row), theirs: null, baseVersion: theirs.version }
}

/** Mine is saved over theirs: the draft now answers their version. */
export const overTheirs = (context: AnswerContext): Partial<AnswerContext> => ({
  baseVersion: context.theirs?.version ?? context.baseVersion,
  row: context.theirs ? { ...context.row, answer: context.theirs } : context.row,
  theirs: null,
})
