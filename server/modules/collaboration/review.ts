import {
  COLLABORATION_TEXTS,
  type ReviewActionRequest,
  type ReviewState,
} from '../../../contract/collaboration.ts'
import { QUESTIONNAIRE_TEXTS } from '../../../contract/questionnaires.ts'
import type { Database } from '../../db/index.ts'
import { inTransaction } from '../../db/index.ts'
import { apiError, notFound } from '../../http/errors.ts'
import type { QuestionnaireService } from '../questionnaires/service.ts'
import { ANSWERED_SQL, label } from '../questionnaires/shared.ts'
import { announceChange, recordActivity } from './activity.ts'
import type { Notifier } from './assignments.ts'

/**
 * A question's review (issue 29): its assignee (or anyone who may write) marks it ready; an
 * approver approves it (the answer's approval, as the approve call gives) or sends it back with
 * changes requested and a comment, which opens a thread on the question. The assignee is told.
 */
export function createReviewFlow(deps: {
  database: Database
  questionnaires: QuestionnaireService
  notifier?: Notifier
}) {
  const { pool } = deps.database

  interface QuestionDb {
    questionnaire_id: string
    name: string
    ref: string | null
    position: number
    assignee_id: string | null
    review_state: ReviewState
    answer_id: string
    answered: boolean
  }

  async function question(orgId: number, questionId: number) {
    const { rows } = await pool.query<QuestionDb>(
      `select qq.questionnaire_id, q.name, qq.ref, qq.position, qq.assignee_id, qq.review_state,
              a.id as answer_id, ${ANSWERED_SQL} as answered
         from questionnaire_questions qq
         join questionnaires q on q.id = qq.questionnaire_id
         join questionnaire_answers a on a.question_id = qq.id and a.rank = qq.selected_rank
        where qq.org_id = $1 and qq.id = $2 and qq.deleted_at is null`,
      [orgId, questionId],
    )
    if (!rows[0]) throw notFound(QUESTIONNAIRE_TEXTS.questionNotFound)
    return rows[0]
  }

  async function act(
    orgId: number,
    actor: { id: number; name: string; canApprove: boolean },
    questionId: number,
    body: ReviewActionRequest,
  ) {
    const found = await question(orgId, questionId)
    const questionnaireId = Number(found.questionnaire_id)
    const what = label(found)
    if (body.action !== 'ready' && !actor.canApprove)
      throw apiError(403, QUESTIONNAIRE_TEXTS.approvedLocked, { code: 'forbidden' })
    if (body.action === 'approve') {
      // the answer's approval, with its history entry; the review state follows it
      await deps.questionnaires.approve(orgId, actor.id, Number(found.answer_id))
    }
    if (body.action === 'request_changes' && !body.comment)
      throw apiError(400, COLLABORATION_TEXTS.changesNeedComment, { code: 'validation_error' })
    if (body.action === 'ready' && !found.answered)
      throw apiError(400, COLLABORATION_TEXTS.reviewNotReady, { code: 'validation_error' })
    const assignee = found.assignee_id ? Number(found.assignee_id) : null
    await inTransaction(pool, async (client) => {
      if (body.action === 'ready')
        await client.query(
          `update questionnaire_questions set review_state = 'ready' where id = $1`,
          [questionId],
        )
      if (body.action === 'request_changes') {
        await client.query(
          `update questionnaire_questions set review_state = 'changes_requested' where id = $1`,
          [questionId],
        )
        await client.query(
          `insert into question_comments (org_id, questionnaire_id, question_id, author_id, body)
           values ($1, $2, $3, $4, $5)`,
          [orgId, questionnaireId, questionId, actor.id, body.comment],
        )
      }
      const summary = {
        ready: `Marked ${what} ready for review`,
        approve: `Approved ${what}`,
        request_changes: `Requested changes to ${what}: ${body.comment ?? ''}`,
      }[body.action]
      // an approval's line is written by the approval itself
      if (body.action !== 'approve')
        await recordActivity(client, {
          orgId,
          questionnaireId,
          kind: (
            { ready: 'ready', approve: 'approved', request_changes: 'changes_requested' } as const
          )[body.action],
          summary: summary.length > 300 ? `${summary.slice(0, 299)}…` : summary,
          questionId,
          userId: actor.id,
        })
      if (assignee && body.action !== 'ready')
        await deps.notifier?.notify(client, [
          {
            orgId,
            userId: assignee,
            kind: body.action === 'approve' ? 'approved' : 'changes_requested',
            text:
              body.action === 'approve'
                ? `${actor.name} approved your answer to ${what} of ${found.name}`
                : `${actor.name} asked for changes to your answer to ${what} of ${found.name}`,
            // what the reviewer wrote is quoted in the email under their name (issue 37, S4)
            quote: body.action === 'request_changes' ? (body.comment ?? undefined) : undefined,
            actorId: actor.id,
            questionnaireId,
            questionId,
          },
        ])
      await announceChange(client, {
        orgId,
        questionnaireId,
        kind: body.action === 'request_changes' ? 'comments' : 'assignments',
        questionIds: [questionId],
        userId: actor.id,
      })
    })
    await deps.notifier?.deliver()
    // the shape of every answer operation: the questionnaire's counts and the row changed
    const [questionnaire, questions] = await Promise.all([
      deps.questionnaires.get(orgId, questionnaireId),
      deps.questionnaires.questionRows(orgId, questionnaireId, { questionIds: [questionId] }),
    ])
    return { questionnaire, questions, operation: null }
  }

  return { act }
}
