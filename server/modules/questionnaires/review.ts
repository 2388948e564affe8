import { COLLABORATION_TEXTS, STALE_EDIT } from '../../../contract/collaboration.ts'
import {
  type AnswerEdit,
  type ApproveBody,
  incompleteText,
  MISSING_LABELS,
  missingParts,
  QUESTIONNAIRE_TEXTS,
} from '../../../contract/questionnaires.ts'
import { forbidden } from '../../auth/permissions.ts'
import { apiError, notFound } from '../../http/errors.ts'
import { auditQuestionnaire, recordActivity } from '../collaboration/activity.ts'
import { upsertApprovedAnswer } from '../knowledge/approved.ts'
import { emitWebhook } from '../platform/webhooks.ts'
import { cellNeedsOf } from './completeness.ts'
import type { History } from './history.ts'
import type { Reading } from './reading.ts'
import {
  type AnswerRowDb,
  type AnswerState,
  answerState,
  type Change,
  isAnswered,
  label,
} from './shared.ts'
import type { AnswerWrites } from './writes.ts'

/** An edit made against a version of the answer that someone has changed since. */
class StaleEdit extends Error {
  readonly questionId: number
  constructor(questionId: number) {
    super('stale edit')
    this.questionId = questionId
  }
}

/**
 * Review operations on one answer: edit, approve, un-approve, select a candidate, delete a question.
 */
export function createReview(answerWrites: AnswerWrites, history: History, reading: Reading) {
  const { findAnswer, lockAnswer, writeAnswer, checkAnswerLimit, checkChoice } = answerWrites
  // a question's questionnaire, and who uploaded it (a contributor deletes only their own)
  const { questionOf, uploaderOf } = answerWrites
  const { change } = history

  async function edit(orgId: number, userId: number, answerId: number, body: AnswerEdit) {
    const questionnaireId = await findAnswer(orgId, answerId)
    try {
      return await editAnswer(orgId, userId, questionnaireId, answerId, body)
    } catch (error) {
      if (!(error instanceof StaleEdit)) throw error
      // 409 with the answer as it now is, for the person to merge theirs with
      const [row] = await reading.questionRows(orgId, questionnaireId, {
        questionIds: [error.questionId],
      })
      const current = row?.candidates.find((answer) => answer.id === answerId) ?? row?.answer
      throw apiError(409, COLLABORATION_TEXTS.staleEdit, {
        code: STALE_EDIT,
        detail: { current },
      })
    }
  }

  async function editAnswer(
    orgId: number,
    userId: number,
    questionnaireId: number,
    answerId: number,
    body: AnswerEdit,
  ) {
    return change(orgId, questionnaireId, userId, async (client) => {
      const row = await lockAnswer(client, orgId, answerId)
      // made against a version someone else has changed since: refused, never overwritten
      if (body.version !== undefined && body.version !== row.version)
        throw new StaleEdit(Number(row.question_id))
      const before = answerState(row)
      const choice = body.choice === undefined ? before.choice : body.choice?.trim() || null
      checkChoice(row.vocabulary, choice)
      const after: AnswerState = {
        ...before,
        text: body.text ?? before.text,
        choice,
        comment: body.comment ?? before.comment,
      }
      if (
        after.text === before.text &&
        after.choice === before.choice &&
        after.comment === before.comment
      )
        return null
      after.status = after.text.trim() || after.choice ? 'edited' : 'pending'
      // a person's words carry no machine confidence (issue 39: an edited draft kept 'Low · 38 %');
      // the history keeps the draft's
      if (
        after.status === 'pending' ||
        after.text !== before.text ||
        after.choice !== before.choice
      )
        after.confidence = null
      if (row.rank === row.selected_rank && !isAnswered(before) && isAnswered(after))
        await checkAnswerLimit(client, orgId, 1)
      await recordActivity(client, {
        orgId,
        questionnaireId,
        kind: 'answered',
        summary: `${isAnswered(before) ? 'Edited the answer to' : 'Answered'} ${label(row)}`,
        questionId: Number(row.question_id),
        userId,
      })
      return {
        kind: 'edit',
        summary: `Edited the answer to ${label(row)}`,
        changes: [await writeAnswer(client, answerId, before, after, userId)],
      }
    })
  }

  async function approve(orgId: number, userId: number, answerId: number, body: ApproveBody = {}) {
    const questionnaireId = await findAnswer(orgId, answerId)
    return change(orgId, questionnaireId, userId, async (client) => {
      const row = await lockAnswer(client, orgId, answerId)
      const before = answerState(row)
      if (!before.text.trim() && !before.choice)
        throw apiError(400, QUESTIONNAIRE_TEXTS.emptyAnswer, { code: 'validation_error' })
      // what the customer's cells take and the answer lacks (issue 39: a text with no dropdown
      // value was approved and exported without a word): confirmed, or refused
      const missing = missingParts(cellNeedsOf(row.target, row.vocabulary), before)
      if (missing.length && !body.confirm_incomplete)
        throw apiError(409, incompleteText(missing), {
          code: 'incomplete_answer',
          detail: missing.map((part) => ({ field: part, message: MISSING_LABELS[part] })),
        })
      const changes: Change[] = []
      if (row.rank !== row.selected_rank) {
        // approving a candidate chooses it
        const current = await client.query<AnswerRowDb>(
          'select * from questionnaire_answers where question_id = $1 and rank = $2',
          [row.question_id, row.selected_rank],
        )
        if (current.rows[0] && !isAnswered(answerState(current.rows[0])))
          await checkAnswerLimit(client, orgId, 1)
        await client.query('update questionnaire_questions set selected_rank = $2 where id = $1', [
          row.question_id,
          row.rank,
        ])
        changes.push({
          t: 'q',
          id: Number(row.question_id),
          before: { selected_rank: row.selected_rank, deleted: false },
          after: { selected_rank: row.rank, deleted: false },
        })
      } else if (!isAnswered(before)) await checkAnswerLimit(client, orgId, 1)
      if (before.status === 'approved' && !changes.length) return null
      changes.push(
        await writeAnswer(client, answerId, before, { ...before, status: 'approved' }, userId),
      )
      // an answer a person wrote or changed, once approved, is the organisation's answer to that
      // question: the library takes it, naming the questionnaire
      if (before.status === 'edited') {
        const { rows } = await client.query<{ question: string; name: string }>(
          `select qq.text as question, q.name from questionnaire_questions qq
             join questionnaires q on q.id = qq.questionnaire_id where qq.id = $1`,
          [row.question_id],
        )
        const asked = rows[0]
        if (asked)
          await upsertApprovedAnswer(client, orgId, userId, {
            question: asked.question,
            text: before.text,
            choice: before.choice,
            questionnaire: asked.name,
          })
      }
      // issue 41: the organisation's endpoints hear of the approval, with the change
      const told = await client.query<{ question: string; name: string }>(
        `select qq.text as question, q.name from questionnaire_questions qq
           join questionnaires q on q.id = qq.questionnaire_id where qq.id = $1`,
        [row.question_id],
      )
      await emitWebhook(client, orgId, 'answer.approved', {
        questionnaire_id: questionnaireId,
        questionnaire: told.rows[0]?.name ?? '',
        question_id: Number(row.question_id),
        question: told.rows[0]?.question ?? '',
        answer_id: answerId,
        text: before.text,
        choice: before.choice,
        approved_by: userId,
      })
      // the questionnaire's activity says who approved what (issue 29)
      await recordActivity(client, {
        orgId,
        questionnaireId,
        kind: 'approved',
        summary: `Approved ${label(row)}`,
        questionId: Number(row.question_id),
        userId,
      })
      return { kind: 'approve', summary: `Approved the answer to ${label(row)}`, changes }
    })
  }

  async function unApprove(orgId: number, userId: number, answerId: number) {
    const questionnaireId = await findAnswer(orgId, answerId)
    return change(orgId, questionnaireId, userId, async (client) => {
      const row = await lockAnswer(client, orgId, answerId)
      const before = answerState(row)
      if (before.status !== 'approved') return null
      const summary = `Withdrew the approval of the answer to ${label(row)}`
      await auditQuestionnaire(
        client,
        { orgId, actorId: userId },
        'questionnaire.unapproved',
        questionnaireId,
        { summary, question_id: Number(row.question_id) },
      )
      return {
        kind: 'un_approve',
        summary,
        changes: [
          await writeAnswer(client, answerId, before, { ...before, status: 'edited' }, userId),
        ],
      }
    })
  }

  async function select(orgId: number, userId: number, questionId: number, answerId: number) {
    const questionnaireId = await questionOf(orgId, questionId)
    return change(orgId, questionnaireId, userId, async (client) => {
      const { rows } = await client.query<{
        rank: number
        selected_rank: number
        ref: string | null
        position: number
      }>(
        `select a.rank, qq.selected_rank, qq.ref, qq.position from questionnaire_answers a
           join questionnaire_questions qq on qq.id = a.question_id
          where a.org_id = $1 and a.id = $2 and a.question_id = $3 and qq.deleted_at is null
          for update of qq`,
        [orgId, answerId, questionId],
      )
      const row = rows[0]
      if (!row) throw notFound(QUESTIONNAIRE_TEXTS.candidateNotFound)
      if (row.rank === row.selected_rank) return null
      const current = await client.query<AnswerRowDb>(
        'select * from questionnaire_answers where question_id = $1 and rank = $2',
        [questionId, row.selected_rank],
      )
      const chosen = await client.query<AnswerRowDb>(
        'select * from questionnaire_answers where id = $1',
        [answerId],
      )
      const wasAnswered = current.rows[0] ? isAnswered(answerState(current.rows[0])) : false
      const willBe = chosen.rows[0] ? isAnswered(answerState(chosen.rows[0])) : false
      if (!wasAnswered && willBe) await checkAnswerLimit(client, orgId, 1)
      await client.query('update questionnaire_questions set selected_rank = $2 where id = $1', [
        questionId,
        row.rank,
      ])
      return {
        kind: 'select',
        summary: `Chose candidate ${row.rank + 1} for ${label(row)}`,
        changes: [
          {
            t: 'q',
            id: questionId,
            before: { selected_rank: row.selected_rank, deleted: false },
            after: { selected_rank: row.rank, deleted: false },
          },
        ],
      }
    })
  }

  /** Deletes a question; with `ownedBy`, only from a questionnaire that user uploaded (else 403). */
  async function deleteQuestion(
    orgId: number,
    userId: number,
    questionId: number,
    ownedBy?: number,
  ) {
    const questionnaireId = await questionOf(orgId, questionId)
    if (ownedBy !== undefined && (await uploaderOf(orgId, questionnaireId)) !== ownedBy)
      throw forbidden(QUESTIONNAIRE_TEXTS.deleteOthers)
    const result = await change(orgId, questionnaireId, userId, async (client) => {
      const { rows } = await client.query<{
        selected_rank: number
        ref: string | null
        position: number
      }>(
        `update questionnaire_questions set deleted_at = now()
          where org_id = $1 and id = $2 and deleted_at is null returning selected_rank, ref, position`,
        [orgId, questionId],
      )
      const row = rows[0]
      if (!row) throw notFound(QUESTIONNAIRE_TEXTS.questionNotFound)
      return {
        kind: 'delete_question',
        summary: `Deleted ${label(row)}`,
        changes: [
          {
            t: 'q',
            id: questionId,
            before: { selected_rank: row.selected_rank, deleted: false },
            after: { selected_rank: row.selected_rank, deleted: true },
          },
        ],
      }
    })
    return { ...result, deleted_question_id: questionId }
  }

  return { edit, approve, unApprove, select, deleteQuestion }
}

export type Review = ReturnType<typeof createReview>
