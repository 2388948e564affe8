import { holdsAnswer } from '../../contract/answers.ts'
import {
  ANSWER_FILTERS,
  type AnswerChange,
  type AnswerFilter,
  type Questionnaire,
  type QuestionRow,
  type Tab,
} from '../../contract/questionnaires.ts'
import type {
  WorkspaceContext,
  WorkspaceData,
  WorkspaceEvents,
  WorkspaceOperation,
} from './workspace.types.ts'

/** The workspace's rows: the filter, the tab, changes merged in, and the focus moving through them. */

export const messageOf = (error: unknown, fallback: string) =>
  error instanceof Error && error.message ? error.message : fallback

export const RUNNING = ['queued', 'analyzing', 'generating'] as const
export const isRunning = (questionnaire: Questionnaire | null) =>
  Boolean(questionnaire && (RUNNING as readonly string[]).includes(questionnaire.status))

/** Whether a row passes a filter (the same rules as the server's filters). */
export function passesFilter(row: QuestionRow, filter: AnswerFilter) {
  const { answer } = row
  const answered = holdsAnswer(answer)
  switch (filter) {
    case 'all':
      return true
    case 'unanswered':
      return !answered
    case 'low_confidence':
      return answered && answer.status !== 'approved' && (answer.confidence ?? 1) < 0.5
    case 'needs_review':
      return answered && answer.status !== 'approved'
    case 'approved':
      return answer.status === 'approved'
    case 'not_ours':
      return (answer.flags ?? []).some((flag) => flag === 'other_product' || flag === 'third_party')
  }
}

/**
 * The filters offered: every one, but "Another product or party" (issue 38) only where some
 * answer of the tab rests on another's word, or while it is chosen.
 */
export const offeredFilters = (counts: Map<AnswerFilter, number>, current: AnswerFilter) =>
  ANSWER_FILTERS.filter(
    (value) => value !== 'not_ours' || value === current || (counts.get(value) ?? 0) > 0,
  )

/** The rows shown: the chosen tab's, through the filter. */
export const visibleRows = (context: Pick<WorkspaceContext, 'rows' | 'tabId' | 'filter'>) =>
  context.rows.filter(
    (row) =>
      (context.tabId === null || row.tab_id === context.tabId) && passesFilter(row, context.filter),
  )

/** Rows updated from a change; deleted questions removed. */
export function mergeRows(rows: QuestionRow[], change: AnswerChange, deletedId?: number) {
  const byId = new Map(change.questions.map((row) => [row.id, row]))
  const merged = rows.filter((row) => row.id !== deletedId).map((row) => byId.get(row.id) ?? row)
  // a question brought back (an undone delete) goes back to its place
  const missing = change.questions.filter((row) => !rows.some((r) => r.id === row.id))
  if (!missing.length) return merged
  return [...merged, ...missing].sort((a, b) => a.position - b.position)
}

export function optimistic(rows: QuestionRow[], operation: WorkspaceOperation) {
  if (operation.kind === 'delete') return rows.filter((row) => row.id !== operation.questionId)
  if (operation.kind === 'select') {
    return rows.map((row) => {
      if (row.id !== operation.questionId) return row
      const chosen = row.candidates.find((c) => c.id === operation.answerId)
      return chosen ? { ...row, answer: chosen } : row
    })
  }
  return rows
}

export const firstTab = (tabs: Tab[]) =>
  (tabs.find((tab) => tab.questions > 0) ?? tabs[0])?.id ?? null

/** The question `by` rows before or after the focused one, among those shown. */
export function step(context: WorkspaceContext, by: 1 | -1) {
  const rows = visibleRows(context)
  if (!rows.length) return null
  const at = rows.findIndex((row) => row.id === context.focusedId)
  if (at < 0) return (by === 1 ? rows[0] : rows[rows.length - 1])?.id ?? null
  return rows[Math.min(rows.length - 1, Math.max(0, at + by))]?.id ?? null
}

/** The operation an event asks for (one at a time; the rows change at once, optimistically). */
export function operationOf(event: WorkspaceEvents): WorkspaceOperation {
  switch (event.type) {
    case 'candidate.select':
      return { kind: 'select', questionId: event.questionId, answerId: event.answerId }
    case 'question.delete':
      return { kind: 'delete', questionId: event.questionId }
    case 'answer.consistency':
      return { kind: 'consistency', answerId: event.answerId }
    case 'section.run':
      return {
        kind: 'section',
        operation: event.operation,
        tabId: event.tabId,
        instruction: event.instruction,
      }
    default:
      return { kind: 'undo' }
  }
}

/** The confirmed mapping a re-analysis sends (none for a plain re-analysis). */
export const mappingsOf = (event: WorkspaceEvents) =>
  event.type === 'mapping.submit' ? [{ tab: event.tab, mapping: event.mapping }] : undefined

/** A loaded workspace: its questionnaire, tabs and rows; the chosen tab kept when it still exists. */
export function adopted(
  context: Pick<WorkspaceContext, 'tabId' | 'focusedId'>,
  data: WorkspaceData,
) {
  const keepTab = data.tabs.some((tab) => tab.id === context.tabId)
  // a question asked for (a link from My work) opens on its own tab
  const focused = data.rows.find((row) => row.id === context.focusedId)
  return {
    questionnaire: data.questionnaire,
    tabs: data.tabs,
    rows: data.rows,
    tabId: focused ? focused.tab_id : keepTab ? context.tabId : firstTab(data.tabs),
    error: null,
  }
}
