import type {
  Answer,
  AnswerChange,
  AnswerEdit,
  QuestionRow,
} from '../../contract/questionnaires.ts'

/** The answer machine's context, events and actor inputs. */

export interface Draft {
  text: string
  choice: string | null
  comment: string
}

export type AnswerAction = 'save' | 'approve' | 'unapprove' | 'regenerate' | 'confirmSource'

export interface AnswerContext {
  row: QuestionRow
  draft: Draft
  /** The row as it was before an optimistic change, to roll back to. */
  previous: QuestionRow | null
  error: string | null
  lastAction: AnswerAction | null
  /** The answer's version the draft was started from: a save names it (issue 29). */
  baseVersion: number
  /** Someone else's answer that a save ran into: shown beside the draft to merge. */
  theirs: Answer | null
  /** What the last action found worth saying ('No new evidence since the last draft'). */
  notice: string | null
}

/** What a save that ran into someone else's change fails with: their answer as it now is. */
export interface StaleSaveError {
  current: Answer
}
/** A field of the draft as typed (an empty choice is none). */
export interface DraftChange {
  field: keyof Draft
  value: string | null
}

export type AnswerEvents =
  | { type: 'row.update'; row: QuestionRow }
  | { type: 'edit' }
  | ({ type: 'change' } & DraftChange)
  | { type: 'cancel' }
  | { type: 'save' }
  | { type: 'approve' }
  | { type: 'unapprove' }
  | { type: 'regenerate'; evidence?: string; fileIds?: number[] }
  | { type: 'retry' }
  | { type: 'dismiss' }
  | { type: 'library.save' }
  /** The changed document still supports the answer: the source_changed flag is cleared. */
  | { type: 'source.confirm' }
  /** Merging a save that ran into someone else's change: take theirs, or save mine over it. */
  | { type: 'merge.theirs' }
  | { type: 'merge.mine' }

export type AnswerEmitted =
  | { type: 'changed'; change: AnswerChange }
  | { type: 'library.saved'; created: boolean }

export interface AnswerInput {
  row: QuestionRow
}

/** What saving an approved answer to the library answers. */
export interface LibrarySaved {
  item_id: number
  created: boolean
}

export interface SaveAnswerInput {
  answerId: number
  edit: AnswerEdit
}
export interface AnswerIdInput {
  answerId: number
  /** Approve though the answer lacks what its cells take (the panel showed what is missing). */
  confirmIncomplete?: boolean
  evidence?: string
  /** Repository files to answer from. */
  fileIds?: number[]
}
