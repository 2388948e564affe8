import { LICENSE_LIMIT } from '../../../contract/billing.ts'
import { fillText } from '../../../contract/knowledge.ts'
import { QUESTIONNAIRE_TEXTS } from '../../../contract/questionnaires.ts'
import { apiError, notFound } from '../../http/errors.ts'
import type { AnswerTarget } from '../../workbooks/analyse.ts'
import { limitOf } from '../account/license.ts'
import {
  ANSWERED_SQL,
  type AnswerRowDb,
  type AnswerState,
  type Change,
  type Queryable,
  type QuestionnaireDeps,
  stateValues,
} from './shared.ts'

/**
 * The primitives every answer change is made of: finding and locking an answer, writing it, and the license's answer limit.
 */
export function createAnswerWrites(deps: QuestionnaireDeps) {
  const { pool } = deps.database

  /** Writes an answer's new state; returns the change to record. */
  async function writeAnswer(
    client: Queryable,
    id: number,
    before: AnswerState,
    after: AnswerState,
    userId: number | null,
  ): Promise<Change> {
    await client.query(
      `update questionnaire_answers set text = $2, choice = $3, comment = $4, status = $5, confidence = $6,
          citations = $7, note = $8, updated_by = $9, updated_at = now(), source_change = null where id = $1`,
      [id, ...stateValues(after), userId],
    )
    return { t: 'a', id, before, after }
  }

  interface LockedAnswer extends AnswerRowDb {
    questionnaire_id: string
    ref: string | null
    position: number
    vocabulary: string[] | null
    selected_rank: number
    target: AnswerTarget | null
  }

  /** The answer (of the caller's org) and its question; a missing one is a 404. */
  async function findAnswer(orgId: number, answerId: number) {
    const { rows } = await pool.query<{ questionnaire_id: string }>(
      `select a.questionnaire_id from questionnaire_answers a
         join questionnaire_questions qq on qq.id = a.question_id
        where a.org_id = $1 and a.id = $2 and qq.deleted_at is null`,
      [orgId, answerId],
    )
    const row = rows[0]
    if (!row) throw notFound(QUESTIONNAIRE_TEXTS.answerNotFound)
    return Number(row.questionnaire_id)
  }

  async function lockAnswer(client: Queryable, orgId: number, answerId: number) {
    const { rows } = await client.query<LockedAnswer>(
      `select a.id, a.question_id, a.rank, a.text, a.choice, a.comment, a.status, a.confidence, a.citations,
              a.note, a.updated_at, a.version, a.questionnaire_id, qq.ref, qq.position, qq.vocabulary,
              qq.selected_rank, qq.target
         from questionnaire_answers a join questionnaire_questions qq on qq.id = a.question_id
        where a.org_id = $1 and a.id = $2 and qq.deleted_at is null
        for update of a`,
      [orgId, answerId],
    )
    const row = rows[0]
    if (!row) throw notFound(QUESTIONNAIRE_TEXTS.answerNotFound)
    return row
  }

  /** max_answers (TI6): called under the questionnaire lock; another org's answers never count. */
  async function checkAnswerLimit(client: Queryable, orgId: number, adding: number) {
    if (adding <= 0) return
    const limit = await limitOf(client, orgId, 'max_answers', true)
    if (limit === null) return
    const used = await client.query<{ count: string }>(
      `select count(*) from questionnaire_answers a
         join questionnaire_questions qq on qq.id = a.question_id and a.rank = qq.selected_rank
        where a.org_id = $1 and qq.deleted_at is null and ${ANSWERED_SQL}`,
      [orgId],
    )
    if (Number(used.rows[0]?.count ?? 0) + adding > limit) {
      throw apiError(403, fillText(QUESTIONNAIRE_TEXTS.answersLimit, { max_answers: limit }), {
        code: LICENSE_LIMIT,
        detail: { limit: 'max_answers', max: limit },
      })
    }
  }

  function checkChoice(vocabulary: string[] | null, choice: string | null) {
    if (choice === null || !vocabulary?.length) return
    if (!vocabulary.includes(choice))
      throw apiError(400, fillText(QUESTIONNAIRE_TEXTS.choiceNotAllowed, { choice }), {
        code: 'validation_error',
      })
  }

  async function questionOf(orgId: number, questionId: number) {
    const { rows } = await pool.query<{ questionnaire_id: string }>(
      `select questionnaire_id from questionnaire_questions where org_id = $1 and id = $2 and deleted_at is null`,
      [orgId, questionId],
    )
    if (!rows[0]) throw notFound(QUESTIONNAIRE_TEXTS.questionNotFound)
    return Number(rows[0].questionnaire_id)
  }

  /** Whether an answer is approved (changing it then takes an approver); false when not found. */
  async function answerApproved(orgId: number, answerId: number) {
    const { rows } = await pool.query<{ status: string }>(
      'select status from questionnaire_answers where org_id = $1 and id = $2',
      [orgId, answerId],
    )
    return rows[0]?.status === 'approved'
  }

  /** Whether a question's answer in use is approved. */
  async function questionApproved(orgId: number, questionId: number) {
    const { rows } = await pool.query<{ status: string }>(
      `select a.status from questionnaire_questions q
         join questionnaire_answers a on a.question_id = q.id and a.rank = q.selected_rank
        where q.org_id = $1 and q.id = $2`,
      [orgId, questionId],
    )
    return rows[0]?.status === 'approved'
  }

  /** Who uploaded a questionnaire (null when that user is gone). */
  async function uploaderOf(orgId: number, questionnaireId: number) {
    const { rows } = await pool.query<{ created_by: string | null }>(
      'select created_by from questionnaires where org_id = $1 and id = $2',
      [orgId, questionnaireId],
    )
    return rows[0]?.created_by ? Number(rows[0].created_by) : null
  }

  return {
    writeAnswer,
    findAnswer,
    lockAnswer,
    checkAnswerLimit,
    checkChoice,
    questionOf,
    uploaderOf,
    answerApproved,
    questionApproved,
  }
}

export type AnswerWrites = ReturnType<typeof createAnswerWrites>
