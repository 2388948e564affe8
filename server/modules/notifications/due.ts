import { DUE_SOON_DAYS } from '../../../contract/collaboration.ts'
import type { Queryable } from '../questionnaires/shared.ts'
import type { NotifyEvent } from './notify.ts'

export const dayOf = (date: Date) => date.toISOString().slice(0, 10)

/**
 * The reminders of a day (issue 29): for each active assignee and questionnaire not yet sent, the
 * questions still to approve that are overdue, and those due within DUE_SOON_DAYS days (the
 * assignment's own due date, else the questionnaire's). One reminder per person, questionnaire,
 * kind and day: the dedupe key makes a second run of the same day add nothing.
 */
export async function remindersOf(client: Queryable, day: string): Promise<NotifyEvent[]> {
  const { rows } = await client.query<{
    org_id: string
    user_id: string
    questionnaire_id: string
    name: string
    overdue: string
    due_soon: string
    first_overdue: string | null
    first_due_soon: string | null
    earliest: string
    latest_soon: string | null
  }>(
    `with work as (
       select qq.org_id, qq.assignee_id, qq.questionnaire_id, q.name, qq.id, qq.position,
              coalesce(qq.assignment_due_date, q.due_date) as due
         from questionnaire_questions qq
         join questionnaires q on q.id = qq.questionnaire_id
         join users u on u.id = qq.assignee_id and u.org_id = qq.org_id and u.status = 'active'
        where qq.assignee_id is not null and qq.deleted_at is null
          and qq.review_state <> 'approved' and q.work_status <> 'sent')
     select org_id, assignee_id as user_id, questionnaire_id, name,
            count(*) filter (where due < $1::date) as overdue,
            count(*) filter (where due >= $1::date) as due_soon,
            (array_agg(id order by position) filter (where due < $1::date))[1] as first_overdue,
            (array_agg(id order by position) filter (where due >= $1::date))[1] as first_due_soon,
            min(due)::text as earliest,
            max(due) filter (where due >= $1::date)::text as latest_soon
       from work
      where due <= $1::date + $2::int
      group by org_id, assignee_id, questionnaire_id, name
      order by assignee_id, questionnaire_id`,
    [day, DUE_SOON_DAYS],
  )
  const count = (n: number) => (n === 1 ? '1 question' : `${n.toLocaleString('en')} questions`)
  return rows.flatMap((row) => {
    const base = {
      orgId: Number(row.org_id),
      userId: Number(row.user_id),
      actorId: null,
      questionnaireId: Number(row.questionnaire_id),
    }
    const events: NotifyEvent[] = []
    const overdue = Number(row.overdue)
    const soon = Number(row.due_soon)
    if (overdue)
      events.push({
        ...base,
        kind: 'overdue',
        text: `${count(overdue)} of ${row.name} ${overdue === 1 ? 'is' : 'are'} overdue (due ${row.earliest})`,
        questionId: row.first_overdue ? Number(row.first_overdue) : null,
        dedupeKey: `overdue:${row.questionnaire_id}:${day}`,
      })
    if (soon)
      events.push({
        ...base,
        kind: 'due_soon',
        text: `${count(soon)} of ${row.name} ${soon === 1 ? 'is' : 'are'} due by ${row.latest_soon}`,
        questionId: row.first_due_soon ? Number(row.first_due_soon) : null,
        dedupeKey: `due_soon:${row.questionnaire_id}:${day}`,
      })
    return events
  })
}
