import {
  COLLABORATION_TEXTS,
  type TeamOverview,
  type WorkUpdate,
} from '../../../contract/collaboration.ts'
import type { Database } from '../../db/index.ts'
import type { EventHub } from '../../http/event-hub.ts'
import type { QuestionnaireService } from '../questionnaires/service.ts'
import { activityOf } from './activity.ts'
import { createAssignments, type Notifier } from './assignments.ts'
import { overviewOf } from './overview.ts'
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
    /** Issue 39: the work asked at upload, checked before the file is stored (the owner). */
    async checkWork(orgId: number, body: WorkUpdate) {
      if (typeof body.owner_id === 'number')
        await work.checkWorker(
          deps.database.pool,
          orgId,
          body.owner_id,
          COLLABORATION_TEXTS.ownerNotAllowed,
        )
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
    /** Home: the organisation's state (overview.ts). */
    team: (orgId: number): Promise<TeamOverview> => overviewOf(deps.database, orgId),
    close: () => presence.close(),
  }
}

export type CollaborationService = ReturnType<typeof createCollaborationService>
