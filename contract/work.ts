import * as z from 'zod/mini'
import { userRefSchema } from './knowledge.ts'

/**
 * What every questionnaire and question returns of the work around it (issue 29): the
 * questionnaire's owner, customer, due date and status, and each question's assignment and
 * review state. The calls that change them are in collaboration.ts.
 */

/** Where a questionnaire stands as a piece of work (apart from its analysis or generation job). */
export const WORK_STATUSES = ['drafting', 'in_review', 'approved', 'sent'] as const
export type WorkStatus = (typeof WORK_STATUSES)[number]
export const WORK_STATUS_LABELS: Record<WorkStatus, string> = {
  drafting: 'Drafting',
  in_review: 'In review',
  approved: 'Approved',
  sent: 'Sent',
}

/** The work fields every questionnaire returns. */
export const workSchema = z.object({
  owner: z.nullable(userRefSchema),
  customer: z.nullable(z.object({ id: z.int(), name: z.string() })),
  requester: z.nullable(z.string()),
  due_date: z.nullable(z.string()),
  work_status: z.enum(WORK_STATUSES),
  /** Past its due date and not yet sent. */
  overdue: z.boolean(),
})
export type Work = z.infer<typeof workSchema>

/**
 * A question's review state: unassigned, then assigned to a person, answered by them, ready for
 * review, approved; or back to the assignee with changes requested.
 */
export const REVIEW_STATES = [
  'unassigned',
  'assigned',
  'answered',
  'ready',
  'changes_requested',
  'approved',
] as const
export type ReviewState = (typeof REVIEW_STATES)[number]
export const REVIEW_STATE_LABELS: Record<ReviewState, string> = {
  unassigned: 'Unassigned',
  assigned: 'Assigned',
  answered: 'Answered',
  ready: 'Ready for review',
  changes_requested: 'Changes requested',
  approved: 'Approved',
}

/** What a question returns of its assignment. */
export const assignmentSchema = z.object({
  assignee: z.nullable(userRefSchema),
  due_date: z.nullable(z.string()),
  review_state: z.enum(REVIEW_STATES),
  /** Open (unresolved) comments on the question. */
  comments: z.int(),
})
export type Assignment = z.infer<typeof assignmentSchema>
