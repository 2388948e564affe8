import type { Person } from '../../contract/collaboration.ts'
import type { AnswerFilter } from '../../contract/questionnaires.ts'

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

export type AssignmentEvents =
  | { type: 'open'; target: AssignTarget; scope: AssignScope }
  | { type: 'scope.set'; scope: AssignScope }
  | { type: 'person.set'; assigneeId: number | null }
  | { type: 'due.set'; dueDate: string }
  | { type: 'submit' }
  | { type: 'close' }
  | { type: 'retry' }

// ---------------------------------------------------------------------------------------------
// Context
// ---------------------------------------------------------------------------------------------

export type AssignScope = 'question' | 'tab' | 'filter' | 'all'

export interface AssignTarget {
  questionId: number | null
  tabId: number | null
  filter: AnswerFilter
}

export interface AssignmentContext {
  questionnaireId: number
  target: AssignTarget
  scope: AssignScope
  people: Person[]
  /** The chosen person; null unassigns. */
  assigneeId: number | null
  dueDate: string
  error: string | null
}

// ---------------------------------------------------------------------------------------------
// Emitted
// ---------------------------------------------------------------------------------------------

export type AssignmentEmitted = { type: 'assigned'; count: number; unassigned: boolean }
