import {
  BARRIER_OPERATIONS,
  type Operation,
  type OperationKind,
  QUESTIONNAIRE_TEXTS,
  type QuestionnaireStatus,
} from '../../../contract/questionnaires.ts'
import { inTransaction } from '../../db/index.ts'
import { apiError, notFound } from '../../http/errors.ts'
import { notifyStatement } from '../../http/event-hub.ts'
import type { Reading } from './reading.ts'
import type { Records } from './records.ts'
import {
  type Change,
  isAnswered,
  type OperationDb,
  operationColumns,
  type Queryable,
  type QuestionnaireDeps,
  toOperation,
} from './shared.ts'
import type { AnswerWrites } from './writes.ts'

/**
 * The history: every change is an operation with the answers' states before and after, and the latest can be undone.
 */
export function createHistory(
  deps: QuestionnaireDeps,
  records: Records,
  reading: Reading,
  answerWrites: AnswerWrites,
) {
  const { pool } = deps.database

  const { get } = records
  const { questionRows } = reading
  const { writeAnswer, checkAnswerLimit } = answerWrites

  async function operations(orgId: number, id: number): Promise<Operation[]> {
    await get(orgId, id)
    const { rows } = await pool.query<OperationDb>(
      `select ${operationColumns} from questionnaire_operations o left join users u on u.id = o.created_by
        where o.org_id = $1 and o.questionnaire_id = $2 order by o.id desc limit 200`,
      [orgId, id],
    )
    const latest = rows.find((row) => !row.undone_at)
    return rows.map((row) =>
      toOperation(row, row === latest && !BARRIER_OPERATIONS.includes(row.kind)),
    )
  }

  /** Locks the questionnaire for a change of its answers; one still being read cannot change. */
  async function lockForChange(client: Queryable, orgId: number, questionnaireId: number) {
    const locked = await client.query<{ status: QuestionnaireStatus }>(
      'select status from questionnaires where org_id = $1 and id = $2 for update',
      [orgId, questionnaireId],
    )
    if (!locked.rowCount) throw notFound(QUESTIONNAIRE_TEXTS.notFound)
    const status = locked.rows[0]?.status
    if (status === 'analyzing' || status === 'queued')
      throw apiError(409, QUESTIONNAIRE_TEXTS.stillAnalyzing, { code: 'conflict' })
  }

  /** Runs a change in one transaction: locks the questionnaire, records the operation, bumps the revision. */
  async function change(
    orgId: number,
    questionnaireId: number,
    userId: number | null,
    work: (client: Queryable) => Promise<{
      kind: OperationKind
      summary: string
      changes: Change[]
    } | null>,
  ) {
    let operationId: number | null = null
    let questionIds: number[] = []
    await inTransaction(pool, async (client) => {
      await lockForChange(client, orgId, questionnaireId)
      const result = await work(client)
      if (result?.changes.length) {
        const answerIds = result.changes.filter((c) => c.t === 'a').map((c) => c.id)
        const fromAnswers = answerIds.length
          ? (
              await client.query<{ question_id: string }>(
                'select distinct question_id from questionnaire_answers where id = any($1::bigint[])',
                [answerIds],
              )
            ).rows.map((r) => Number(r.question_id))
          : []
        questionIds = [
          ...new Set([
            ...fromAnswers,
            ...result.changes.filter((c) => c.t === 'q').map((c) => c.id),
          ]),
        ]
        const inserted = await client.query<{ id: string }>(
          `insert into questionnaire_operations (org_id, questionnaire_id, kind, summary, question_count, changes, created_by)
           values ($1, $2, $3, $4, $5, $6, $7) returning id`,
          [
            orgId,
            questionnaireId,
            result.kind,
            result.summary,
            questionIds.length,
            JSON.stringify(result.changes),
            userId,
          ],
        )
        operationId = Number(inserted.rows[0]?.id)
        await revise(client, orgId, questionnaireId, questionIds, userId)
      }
    })
    return changeResponse(orgId, questionnaireId, questionIds, operationId)
  }

  /**
   * What a change would do, without doing it (issue 30: a bulk change is previewed before it is
   * confirmed): the same work in a transaction that is rolled back, so nothing is kept, announced
   * or counted. Its changes, with the answers' states before and after.
   */
  async function preview(
    orgId: number,
    questionnaireId: number,
    work: (client: Queryable) => Promise<{ changes: Change[] } | null>,
  ): Promise<Change[]> {
    const ROLLBACK = new Error('preview: rolled back')
    let changes: Change[] = []
    try {
      await inTransaction(pool, async (client) => {
        await lockForChange(client, orgId, questionnaireId)
        changes = (await work(client))?.changes ?? []
        throw ROLLBACK
      })
    } catch (error) {
      if (error !== ROLLBACK) throw error
    }
    return changes
  }

  /**
   * A question's review state follows its answer in use (issue 29): approved with it, back to
   * answered (or unassigned) when the approval goes, answered when a person writes the answer of
   * an assigned question or one sent back with changes requested.
   */
  async function followReview(client: Queryable, questionIds: number[]) {
    if (!questionIds.length) return
    await client.query(
      `update questionnaire_questions qq set review_state = case
          when a.status = 'approved' then 'approved'
          when qq.review_state = 'approved' then
            case when qq.assignee_id is null then 'unassigned' else 'answered' end
          when qq.review_state in ('assigned', 'changes_requested') and a.status = 'edited'
               and (a.text <> '' or a.choice is not null) then 'answered'
          else qq.review_state end
         from questionnaire_answers a
        where a.question_id = qq.id and a.rank = qq.selected_rank and qq.id = any($1::bigint[])`,
      [questionIds],
    )
  }

  /**
   * After a change: the review states follow, the revision is bumped, and the questionnaire's
   * viewers are told which questions changed when the transaction commits (issue 29).
   */
  async function revise(
    client: Queryable,
    orgId: number,
    questionnaireId: number,
    questionIds: number[],
    userId: number | null,
  ) {
    await followReview(client, questionIds)
    const revised = await client.query<{ revision: number }>(
      'update questionnaires set revision = revision + 1, updated_at = now() where id = $1 returning revision',
      [questionnaireId],
    )
    const [text, values] = notifyStatement({
      key: `questionnaire:${questionnaireId}`,
      org: orgId,
      type: 'change',
      data: {
        kind: 'answers',
        question_ids: questionIds,
        by: userId,
        revision: revised.rows[0]?.revision ?? null,
      },
    })
    await client.query(text, values)
  }

  async function changeResponse(
    orgId: number,
    questionnaireId: number,
    questionIds: number[],
    operationId: number | null,
  ) {
    const [questionnaire, questions] = await Promise.all([
      get(orgId, questionnaireId),
      questionIds.length
        ? questionRows(orgId, questionnaireId, { questionIds })
        : Promise.resolve([]),
    ])
    let operation: Operation | null = null
    if (operationId) {
      const { rows } = await pool.query<OperationDb>(
        `select ${operationColumns} from questionnaire_operations o left join users u on u.id = o.created_by where o.id = $1`,
        [operationId],
      )
      if (rows[0]) operation = toOperation(rows[0], true)
    }
    return { questionnaire, questions, operation }
  }

  /**
   * Reverts the latest operation that has not been undone; one undo per call. An operation that
   * approved an answer, or changed an approved one, is undone only by someone who may approve.
   */
  async function undo(orgId: number, userId: number, questionnaireId: number, canApprove = true) {
    await get(orgId, questionnaireId)
    let questionIds: number[] = []
    let operationId: number | null = null
    await inTransaction(pool, async (client) => {
      await client.query('select id from questionnaires where org_id = $1 and id = $2 for update', [
        orgId,
        questionnaireId,
      ])
      const { rows } = await client.query<{ id: string; kind: OperationKind; changes: Change[] }>(
        `select id, kind, changes from questionnaire_operations
          where org_id = $1 and questionnaire_id = $2 and undone_at is null
          order by id desc limit 1`,
        [orgId, questionnaireId],
      )
      const operation = rows[0]
      if (!operation || BARRIER_OPERATIONS.includes(operation.kind))
        throw apiError(409, QUESTIONNAIRE_TEXTS.nothingToUndo, { code: 'conflict' })
      const touchesApproved = operation.changes.some(
        (c) => c.t === 'a' && (c.before?.status === 'approved' || c.after.status === 'approved'),
      )
      if (touchesApproved && !canApprove)
        throw apiError(403, QUESTIONNAIRE_TEXTS.approvedLocked, { code: 'forbidden' })
      const answered: { before: boolean; after: boolean }[] = []
      const touched = operation.changes.filter((c) => c.t === 'a').map((c) => c.id)
      if (touched.length) {
        const { rows: owners } = await client.query<{ question_id: string }>(
          'select distinct question_id from questionnaire_answers where id = any($1::bigint[])',
          [touched],
        )
        questionIds.push(...owners.map((r) => Number(r.question_id)))
      }
      for (const item of [...operation.changes].reverse()) {
        if (item.t === 'a') {
          if (item.before === null) {
            await client.query('delete from questionnaire_answers where id = $1 and rank > 0', [
              item.id,
            ])
            continue
          }
          answered.push({ before: isAnswered(item.after), after: isAnswered(item.before) })
          await writeAnswer(client, item.id, item.after, item.before, userId)
        } else {
          await client.query(
            `update questionnaire_questions set selected_rank = $2,
                deleted_at = case when $3 then coalesce(deleted_at, now()) else null end
              where id = $1`,
            [item.id, item.before.selected_rank, item.before.deleted],
          )
          questionIds.push(item.id)
        }
      }
      // undoing may bring answers back; the answers limit still holds
      const adding = answered.filter((a) => !a.before && a.after).length
      const removing = answered.filter((a) => a.before && !a.after).length
      await checkAnswerLimit(client, orgId, adding - removing)
      await client.query('update questionnaire_operations set undone_at = now() where id = $1', [
        operation.id,
      ])
      questionIds = [...new Set(questionIds)]
      await revise(client, orgId, questionnaireId, questionIds, userId)
      operationId = Number(operation.id)
    })
    const response = await changeResponse(orgId, questionnaireId, questionIds, null)
    return { ...response, undone_operation_id: operationId }
  }

  /* ------------------------------------------------------------ files */

  return { operations, change, preview, undo }
}

export type History = ReturnType<typeof createHistory>
