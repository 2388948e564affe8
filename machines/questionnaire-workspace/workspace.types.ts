import type { UserRef } from '../../contract/knowledge.ts'
import type {
  AnswerChange,
  AnswerFilter,
  Operation,
  Questionnaire,
  QuestionRow,
  SectionOperation,
  Tab,
  TabMapping,
} from '../../contract/questionnaires.ts'

/** The review workspace's data, context, events and what it emits. */

export interface WorkspaceData {
  questionnaire: Questionnaire
  tabs: Tab[]
  rows: QuestionRow[]
}

export type WorkspaceOperation =
  | { kind: 'select'; questionId: number; answerId: number }
  | { kind: 'delete'; questionId: number }
  | { kind: 'undo' }
  /** Copies an answer to the questions that ask the same thing. */
  | { kind: 'consistency'; answerId: number }
  /** A section operation over a tab. */
  | { kind: 'section'; operation: SectionOperation; tabId: number | null; instruction?: string }

export interface OperationResult {
  change: AnswerChange
  deletedQuestionId?: number
  /** Something the user should know, such as approved answers that contradict each other. */
  notice?: string
}

export interface WorkspaceContext {
  id: number
  questionnaire: Questionnaire | null
  tabs: Tab[]
  rows: QuestionRow[]
  tabId: number | null
  filter: AnswerFilter
  focusedId: number | null
  error: string | null
  /** The rows before an operation, to roll back to. */
  previousRows: QuestionRow[] | null
  operation: WorkspaceOperation | null
  history: Operation[]
  historyError: string | null
  mappingTab: string | null
  mappingError: string | null
  maxAnswers: number
  /** Repository files the user may answer from (regenerate with evidence). */
  evidenceFiles: { id: number; name: string }[]
  /** Who else has the questionnaire open, the signed-in person included (issue 29). */
  viewers: UserRef[]
  /** The server refused the live stream for a while: live updates are paused (issue 37). */
  livePaused: boolean
  /** The question whose deletion waits for the person's confirmation. */
  deletingId: number | null
}

export type WorkspaceEvents =
  | { type: 'retry' }
  /** Reads every answer again (after the earlier answers were carried forward). */
  | { type: 'refresh' }
  | { type: 'tab.select'; tabId: number }
  | { type: 'filter.set'; filter: AnswerFilter }
  | { type: 'focus'; questionId: number }
  | { type: 'focus.next' }
  | { type: 'focus.previous' }
  | { type: 'rows.merge'; change: AnswerChange }
  | { type: 'candidate.select'; questionId: number; answerId: number }
  | { type: 'question.delete'; questionId: number }
  | { type: 'undo' }
  | { type: 'history.open' }
  | { type: 'history.close' }
  | { type: 'history.refresh' }
  | { type: 'mapping.open'; tab: string }
  | { type: 'mapping.close' }
  | { type: 'mapping.submit'; tab: string; mapping: TabMapping }
  | { type: 'reanalyze' }
  | { type: 'notice.close' }
  /** From the live stream: who has the questionnaire open. */
  | { type: 'presence.set'; viewers: UserRef[] }
  | { type: 'live.paused'; paused: boolean }
  /** From the live stream: an export of this questionnaire finished (issue 37). */
  | { type: 'exports.changed' }
  | { type: 'files.load' }
  | { type: 'generate' }
  | { type: 'generate.cancel' }
  | { type: 'answer.consistency'; answerId: number }
  | {
      type: 'section.run'
      operation: SectionOperation
      tabId: number | null
      instruction?: string
    }
  /** The focused question opened in full (on a narrow screen, its answer sheet). */
  | { type: 'question.open'; questionId: number }
  | { type: 'sheet.open' }
  | { type: 'sheet.close' }
  /** Deleting a question asks first; `delete.confirm` deletes it (undoable). */
  | { type: 'delete.ask'; questionId: number }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' }
  /** A section operation shown before it runs (the section-preview child). */
  | { type: 'section.preview'; operation: SectionOperation; tabId: number | null }
  | { type: 'custom.open' }
  | { type: 'custom.close' }
  | { type: 'custom.submit'; instruction: string }
  /** Assigns a question (or, without one, the tab or filter shown) through the assignment child. */
  | { type: 'assign.open'; questionId: number | null }
  /** A question's open comment threads, shown on its row at once. */
  | { type: 'comments.count'; questionId: number; open: number }
  /** The focused answer was saved to the library (new, or an update of an item). */
  | { type: 'library.saved'; created: boolean }
  /** From the children: an export written or failed, questions assigned, answers carried. */
  | { type: 'export.done'; fileName: string }
  | { type: 'export.failed'; message: string }
  | { type: 'assignment.done'; count: number; unassigned: boolean }
  | { type: 'carry.done' }

/** A toast the page shows, worded by the workspace (contract/workspace-texts.ts). */
export interface WorkspaceToast {
  type: 'success' | 'error' | 'warning'
  title: string
}

export type WorkspaceEmitted = { type: 'toast'; toast: WorkspaceToast }
