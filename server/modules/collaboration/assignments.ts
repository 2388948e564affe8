import {
  type AssignRequest,
  COLLABORATION_TEXTS,
  type MyAssignment,
  type MyAssignments,
  type ReviewState,
  type WorkGroup,
} from '../../../contract/collaboration.ts'
import { QUESTIONNAIRE_TEXTS } from '../../../contract/questionnaires.ts'
import type { Database } from '../../db/index.ts'
import { inTransaction } from '../../db/index.ts'
import { apiError, notFound } from '../../http/errors.ts'
import type { NotifyEvent } from '../notifications/notify.ts'
import { ANSWER_FILTER_SQL, label, type Queryable } from '../questionnaires/shared.ts'
import { announceChange, recordActivity } from './activity.ts'

/** What the notification service takes (issue 29): called inside the caller's transaction. */
export interface Notifier {
  notify(client: Queryable, events: NotifyEvent[]): Promise<void>
  /** Sends what the committed notifications owe by email. */
  deliver(): Promise<void>
}

const DAY_MS = 86_400_000
const dayOf = (date: Date) => date.toISOString().slice(0, 10)

/** How a due date groups an assignment on "My work", seen on `today`. */
export function groupOf(due: string | null, today: Date): WorkGroup {
  if (!due) return 'no_date'
  const day = dayOf(today)
  if (due < day) return 'overdue'
  if (due <= dayOf(new Date(today.getTime() + 7 * DAY_MS))) return 'this_week'
  return 'later'
}

/**
 * Assignments (issue 29): questions handed to a person, by id, tab or filter, in one statement
 * however many; the assignee is told once; and the list of what is assigned to me.
 */
export function createAssignments(deps: {
  database: Database
  notifier?: Notifier
  now?: () => Date
  checkWorker: (client: Queryable, orgId: number, userId: number, message: string) => Promise<void>
}) {
  const { pool } = deps.database
  const now = deps.now ?? (() => new Date())

  async function nameOf(client: Queryable, userId: number) {
    const { rows } = await client.query<{ name: string }>(
      `select coalesce(nullif(trim(first_name || ' ' || last_name), ''), email) as name from users where id = $1`,
      [userId],
    )
    return rows[0]?.name ?? 'Someone'
  }

  async function assign(
    orgId: number,
    userId: number,
    questionnaireId: number,
    body: AssignRequest,
  ) {
    let assigned = 0
    await inTransaction(pool, async (client) => {
      const { rows } = await client.query<{ name: string; due_date: string | null }>(
        `select name, due_date::text as due_date from questionnaires where org_id = $1 and id = $2 for update`,
        [orgId, questionnaireId],
      )
      const questionnaire = rows[0]
      if (!questionnaire) throw notFound(QUESTIONNAIRE_TEXTS.notFound)
      const assignee = body.assignee_id
      if (assignee !== null)
        await deps.checkWorker(client, orgId, assignee, COLLABORATION_TEXTS.assigneeNotAllowed)
      const due = assignee === null ? null : (body.due_date ?? null)
      if (due && questionnaire.due_date && due > questionnaire.due_date)
        throw apiError(400, COLLABORATION_TEXTS.dueAfterQuestionnaire, {
          code: 'validation_error',
        })
      const where = ['qq.org_id = $1', 'qq.questionnaire_id = $2', 'qq.deleted_at is null']
      const values: unknown[] = [orgId, questionnaireId, assignee, due]
      if (body.question_ids) {
        values.push(body.question_ids)
        where.push(`qq.id = any($${values.length}::bigint[])`)
      }
      if (body.tab_id) {
        values.push(body.tab_id)
        where.push(`qq.tab_id = $${values.length}`)
      }
      const filter = ANSWER_FILTER_SQL[body.filter ?? 'all']
      if (filter) where.push(filter)
      // a tab, a filter or all: an approved answer has no work left in it, unless asked
      if (
        assignee !== null &&
        !body.question_ids &&
        !body.include_approved &&
        body.filter !== 'approved'
      )
        where.push(`a.status <> 'approved'`)
      // approved questions keep their state; others become assigned, or unassigned when let go
      const updated = await client.query<{ id: string; ref: string | null; position: number }>(
        `update questionnaire_questions qq
            set assignee_id = $3, assignment_due_date = $4::date,
                review_state = case
                  when qq.review_state = 'approved' then 'approved'
                  when $3::bigint is null then 'unassigned'
                  when qq.review_state = 'unassigned' or qq.assignee_id is distinct from $3::bigint then 'assigned'
                  else qq.review_state end
           from questionnaire_answers a
          where a.question_id = qq.id and a.rank = qq.selected_rank and ${where.join(' and ')}
          returning qq.id, qq.ref, qq.position`,
        values,
      )
      assigned = updated.rowCount ?? 0
      if (!assigned) return
      const ids = updated.rows.map((row) => Number(row.id))
      const first = updated.rows[0]
      const what =
        assigned === 1 && first ? label(first) : `${assigned.toLocaleString('en')} questions`
      const actor = await nameOf(client, userId)
      if (assignee === null) {
        await recordActivity(client, {
          orgId,
          questionnaireId,
          kind: 'unassigned',
          summary: `Unassigned ${what}`,
          questionId: assigned === 1 ? ids[0] : null,
          userId,
        })
      } else {
        const person = await nameOf(client, assignee)
        await recordActivity(client, {
          orgId,
          questionnaireId,
          kind: 'assigned',
          summary: `Assigned ${what} to ${person}${due ? `, due ${due}` : ''}`,
          questionId: assigned === 1 ? ids[0] : null,
          userId,
          detail: { assignee_id: assignee, questions: assigned },
        })
        await deps.notifier?.notify(client, [
          {
            orgId,
            userId: assignee,
            kind: 'assigned',
            text: `${actor} assigned you ${what} of ${questionnaire.name}${due ? `, due ${due}` : ''}`,
            actorId: userId,
            questionnaireId,
            questionId: ids[0] ?? null,
          },
        ])
      }
      await announceChange(client, {
        orgId,
        questionnaireId,
        kind: 'assignments',
        questionIds: ids,
        userId,
      })
    })
    if (assigned) await deps.notifier?.deliver()
    return { assigned }
  }

  /** Everything assigned to me and not yet approved, soonest first; the counts of every group. */
  async function mine(orgId: number, userId: number, limit = 500): Promise<MyAssignments> {
    const today = now()
    const { rows } = await pool.query<{
      questionnaire_id: string
      questionnaire: string
      customer: string | null
      question_id: string
      tab_id: string
      ref: string | null
      text: string
      due_date: string | null
      state: ReviewState
      overdue: string
      this_week: string
      later: string
      no_date: string
    }>(
      // the counts are one aggregate over every assignment, joined to the page of the first ones
      `with mine as (
         select q.id as questionnaire_id, q.name as questionnaire, c.name as customer,
                qq.id as question_id, qq.tab_id, qq.ref, qq.text, qq.position,
                coalesce(qq.assignment_due_date, q.due_date) as due, qq.review_state as state
           from questionnaire_questions qq
           join questionnaires q on q.id = qq.questionnaire_id
           left join customers c on c.id = q.customer_id
          where qq.assignee_id = $2 and qq.org_id = $1 and qq.deleted_at is null
            and qq.review_state <> 'approved' and q.work_status <> 'sent'),
       counts as (
         select count(*) filter (where due < $3::date) as overdue,
                count(*) filter (where due >= $3::date and due <= $3::date + 7) as this_week,
                count(*) filter (where due > $3::date + 7) as later,
                count(*) filter (where due is null) as no_date
           from mine)
       select m.questionnaire_id, m.questionnaire, m.customer, m.question_id, m.tab_id, m.ref,
              m.text, m.due::text as due_date, m.state, k.overdue, k.this_week, k.later, k.no_date
         from (select * from mine order by due nulls last, questionnaire_id, position limit $4) m
        cross join counts k
        order by m.due nulls last, m.questionnaire_id, m.position`,
      [orgId, userId, dayOf(today), limit],
    )
    const head = rows[0]
    const results: MyAssignment[] = rows.map((row) => ({
      questionnaire_id: Number(row.questionnaire_id),
      questionnaire: row.questionnaire,
      customer: row.customer,
      question_id: Number(row.question_id),
      tab_id: Number(row.tab_id),
      ref: row.ref,
      text: row.text,
      due_date: row.due_date,
      state: row.state,
      group: groupOf(row.due_date, today),
    }))
    return {
      results,
      counts: {
        overdue: Number(head?.overdue ?? 0),
        this_week: Number(head?.this_week ?? 0),
        later: Number(head?.later ?? 0),
        no_date: Number(head?.no_date ?? 0),
      },
    }
  }

  return { assign, mine }
}

export type Assignments = ReturnType<typeof createAssignments>
