import type { TeamOverview, WorkUpdate } from '../../../contract/collaboration.ts'
import type { Database } from '../../db/index.ts'
import { personOf } from '../../db/people.ts'
import type { EventHub } from '../../http/event-hub.ts'
import type { QuestionnaireService } from '../questionnaires/service.ts'
import { activityOf } from './activity.ts'
import { createAssignments, type Notifier } from './assignments.ts'
import { createPresence } from './presence.ts'
import { createReviewFlow } from './review.ts'
import { createWork } from './work.ts'

/**
 * Working together on a questionnaire (issue 29), composed: the work fields and customers,
 * assignments and my work, the review steps, the activity, and presence on the live stream.
 */
export function createCollaborationService(deps: {
  database: Database
  questionnaires: QuestionnaireService
  hub: EventHub
  notifier?: Notifier
  now?: () => Date
}) {
  const work = createWork(deps)
  const assignments = createAssignments({ ...deps, checkWorker: work.checkWorker })
  const review = createReviewFlow(deps)
  const presence = createPresence(deps.hub, deps.database.pool)
  return {
    hub: deps.hub,
    presence,
    questionnaire: (orgId: number, id: number) => deps.questionnaires.get(orgId, id),
    async updateWork(orgId: number, userId: number, id: number, body: WorkUpdate) {
      await work.update(orgId, userId, id, body)
      return deps.questionnaires.get(orgId, id)
    },
    customers: work.customers,
    people: work.people,
    createCustomer: work.createCustomer,
    customer: work.customer,
    assign: assignments.assign,
    mine: assignments.mine,
    review: review.act,
    async activity(orgId: number, id: number, options: { before?: number; limit: number }) {
      await deps.questionnaires.get(orgId, id)
      return activityOf(deps.database.pool, orgId, id, options)
    },
    /** Home: the team's overdue questionnaires (soonest first) and its latest activity. */
    async team(orgId: number): Promise<TeamOverview> {
      const [overdue, activity] = await Promise.all([
        deps.database.pool.query<{
          id: string
          name: string
          due_date: string
          customer: string | null
          owner_id: string | null
          first_name: string | null
          last_name: string | null
          email: string | null
          questions: string
          approved: string
        }>(
          `select q.id, q.name, q.due_date::text as due_date, c.name as customer, q.owner_id,
                  u.first_name, u.last_name, u.email,
                  (select count(*) from questionnaire_questions qq
                    where qq.questionnaire_id = q.id and qq.deleted_at is null) as questions,
                  (select count(*) from questionnaire_questions qq
                     join questionnaire_answers a on a.question_id = qq.id and a.rank = qq.selected_rank
                    where qq.questionnaire_id = q.id and qq.deleted_at is null and a.status = 'approved') as approved
             from questionnaires q
             left join customers c on c.id = q.customer_id
             left join users u on u.id = q.owner_id
            where q.org_id = $1 and q.due_date < current_date and q.work_status <> 'sent'
            order by q.due_date, q.id limit 10`,
          [orgId],
        ),
        activityOf(deps.database.pool, orgId, null, { limit: 10 }),
      ])
      return {
        overdue: overdue.rows.map((row) => ({
          id: Number(row.id),
          name: row.name,
          due_date: row.due_date,
          customer: row.customer,
          owner: personOf({ user_id: row.owner_id, ...row }),
          questions: Number(row.questions),
          approved: Number(row.approved),
        })),
        activity,
      }
    },
    close: () => presence.close(),
  }
}

export type CollaborationService = ReturnType<typeof createCollaborationService>
