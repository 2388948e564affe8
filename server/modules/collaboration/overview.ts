import type { TeamOverview } from '../../../contract/collaboration.ts'
import type { Database } from '../../db/index.ts'
import { personOf } from '../../db/people.ts'
import { ANSWERED_SQL, type AnswerCountCols, answerCountsOf } from '../questionnaires/shared.ts'
import { activityOf } from './activity.ts'

/**
 * Home's dashboard (issues 29 and 30): the questionnaires in progress with their progress and due
 * dates (the overdue first), the answers waiting for a reviewer, the team's latest activity, and
 * which first steps the organisation has taken. One round trip of four statements.
 */

const IN_PROGRESS_LIMIT = 8

interface ProgressRow extends AnswerCountCols {
  id: string
  name: string
  due_date: string | null
  overdue: boolean
  work_status: string
  customer: string | null
  owner_id: string | null
  first_name: string | null
  last_name: string | null
  email: string | null
  total: string
}

export async function overviewOf(database: Database, orgId: number): Promise<TeamOverview> {
  const pool = database.pool
  const [progress, review, steps, activity] = await Promise.all([
    pool.query<ProgressRow>(
      `with open as (
         select q.*, count(*) over () as total
           from questionnaires q
          where q.org_id = $1 and q.work_status <> 'sent' and q.status <> 'failed'
          order by (q.due_date < current_date) desc nulls last, q.due_date nulls last,
                   q.updated_at desc, q.id desc
          limit ${IN_PROGRESS_LIMIT})
       select o.id, o.name, o.due_date::text as due_date,
              coalesce(o.due_date < current_date, false) as overdue, o.work_status,
              c.name as customer, o.owner_id, u.first_name, u.last_name, u.email, o.total,
              count(qq.id) as questions,
              count(qq.id) filter (where ${ANSWERED_SQL}) as answered,
              count(qq.id) filter (where a.status = 'approved') as approved
         from open o
         left join customers c on c.id = o.customer_id
         left join users u on u.id = o.owner_id
         left join questionnaire_questions qq on qq.questionnaire_id = o.id and qq.deleted_at is null
         left join questionnaire_answers a on a.question_id = qq.id and a.rank = qq.selected_rank
        group by o.id, o.name, o.due_date, o.work_status, o.updated_at, c.name, o.owner_id,
                 u.first_name, u.last_name, u.email, o.total
        order by (o.due_date < current_date) desc nulls last, o.due_date nulls last,
                 o.updated_at desc, o.id desc`,
      [orgId],
    ),
    pool.query<{ ready: string; drafts: string }>(
      `select count(*) filter (where qq.review_state = 'ready') as ready,
              count(*) filter (where a.status in ('generated', 'edited', 'existing')
                                 and (a.text <> '' or a.choice is not null)) as drafts
         from questionnaires q
         join questionnaire_questions qq on qq.questionnaire_id = q.id and qq.deleted_at is null
         join questionnaire_answers a on a.question_id = qq.id and a.rank = qq.selected_rank
        where q.org_id = $1 and q.work_status <> 'sent'`,
      [orgId],
    ),
    pool.query<{ documents: boolean; library: boolean; questionnaire: boolean; chat: boolean }>(
      `select exists (select 1 from repository_files where org_id = $1) as documents,
              exists (select 1 from kb_qa_items where org_id = $1) as library,
              exists (select 1 from questionnaires where org_id = $1) as questionnaire,
              exists (select 1 from chat_sessions where org_id = $1) as chat`,
      [orgId],
    ),
    activityOf(pool, orgId, null, { limit: 10 }),
  ])
  const open = progress.rows.map((row) => ({
    id: Number(row.id),
    name: row.name,
    due_date: row.due_date,
    overdue: row.overdue,
    work_status: row.work_status as TeamOverview['in_progress'][number]['work_status'],
    customer: row.customer,
    owner: personOf({ user_id: row.owner_id, ...row }),
    ...answerCountsOf(row),
  }))
  const counts = review.rows[0]
  return {
    overdue: open.flatMap((item) =>
      item.overdue && item.due_date ? [{ ...item, due_date: item.due_date }] : [],
    ),
    in_progress: open,
    in_progress_count: Number(progress.rows[0]?.total ?? 0),
    review: { ready: Number(counts?.ready ?? 0), drafts: Number(counts?.drafts ?? 0) },
    first_steps: steps.rows[0] ?? {
      documents: false,
      library: false,
      questionnaire: false,
      chat: false,
    },
    activity,
  }
}
