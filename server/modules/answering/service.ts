import { QUESTIONNAIRE_TEXTS } from '../../../contract/questionnaires.ts'
import { notFound } from '../../http/errors.ts'
import { createCarryForward } from './carry.ts'
import { createDrafting } from './drafting.ts'
import { createGeneration } from './generation.ts'
import { createLibraryOperations } from './library.ts'
import { createReview } from './review.ts'
import type { AnsweringDeps } from './shared.ts'
import { createSourceChecks } from './sources.ts'

export { GENERATE_JOB, LLM_REQUIRED } from './shared.ts'

/**
 * Answering a questionnaire: generation as a job with per-question progress (resumable, never
 * touching answers a person edited or approved, DU2), and the review operations of one answer or
 * a section. Every run is one operation in the history and one undo.
 */
export function createAnsweringService(deps: AnsweringDeps) {
  const drafting = createDrafting(deps)
  const generation = createGeneration(deps, drafting)
  const carry = createCarryForward(deps)
  const sources = createSourceChecks(deps)
  /** Carries an earlier questionnaire's answers forward, then drafts the questions left open. */
  async function carryForward(
    orgId: number,
    user: { id: number; canApprove: boolean },
    id: number,
    fromId: number,
  ) {
    return carry.carryForward(orgId, user, id, fromId, async () => {
      const { rows } = await deps.database.pool.query(
        `select 1 from questionnaire_questions qq
           join questionnaire_answers a on a.question_id = qq.id and a.rank = qq.selected_rank
          where qq.questionnaire_id = $1 and qq.deleted_at is null and a.status in ('pending', 'failed') limit 1`,
        [id],
      )
      if (!rows.length) return false
      await generation.start(orgId, user.id, id)
      return true
    })
  }
  return {
    ...generation,
    previous: carry.previous,
    carryForward,
    ...sources,
    /** Clears an answer's 'source changed' flag; its question as the answers list shows it. */
    async confirmSourceOf(orgId: number, answerId: number) {
      const confirmed = await sources.confirmSource(orgId, answerId)
      if (!confirmed) throw notFound(QUESTIONNAIRE_TEXTS.answerNotFound)
      const [questionnaire, questions] = await Promise.all([
        deps.questionnaires.get(orgId, confirmed.questionnaireId),
        deps.questionnaires.questionRows(orgId, confirmed.questionnaireId, {
          questionIds: [confirmed.questionId],
        }),
      ])
      // no operation: confirming changes no answer, so there is nothing to undo
      return { questionnaire, questions, operation: null }
    },
    ...createReview(deps, drafting),
    ...createLibraryOperations(deps),
    answerQuestion: drafting.answerQuestion,
  }
}

export type AnsweringService = ReturnType<typeof createAnsweringService>
