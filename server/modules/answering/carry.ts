import type {
  AnswerStatus,
  CarriedFrom,
  CarryForwardResponse,
  Citation,
  PreviousMatch,
} from '../../../contract/questionnaires.ts'
import { CARRIED_PREFIX, QUESTIONNAIRE_TEXTS } from '../../../contract/questionnaires.ts'
import { apiError, notFound } from '../../http/errors.ts'
import type { Change } from '../questionnaires/shared.ts'
import { type AnsweringDeps, type AnswerState, type Queryable, stateOf } from './shared.ts'

/**
 * A questionnaire answered before (issue 28): the same template or the same customer's form sent
 * again. Questions are matched by their words: the same words carry the earlier approved answer
 * forward; a question reworded since (the same ID, or most of its words) is drafted afresh and
 * shows the earlier wording; the rest are new, and what the earlier one asked and this one does
 * not is listed as removed.
 */

/** At least this share of questions in the same words: the same template. */
export const SAME_TEMPLATE = 0.5
/** Earlier questionnaires compared with at most. */
const CANDIDATES = 50
/** A reworded question keeps this share of its words (the same ID: a lower share). */
const REWORDED = 0.6
const REWORDED_SAME_REF = 0.35

const HUMAN: AnswerStatus[] = ['edited', 'approved']

const normalised = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
const wordsOf = (text: string) => new Set(normalised(text).split(' ').filter(Boolean))
function overlap(a: Set<string>, b: Set<string>) {
  if (!a.size || !b.size) return 0
  let shared = 0
  for (const word of a) if (b.has(word)) shared++
  return shared / (a.size + b.size - shared)
}

interface QuestionAnswer {
  id: string
  ref: string | null
  text: string
  selected_rank: number
  answer_id: string
  status: AnswerStatus
  a_text: string
  choice: string | null
  comment: string
  confidence: number | null
  citations: Citation[]
  note: string | null
  answered_at: Date
}

interface Pairing {
  identical: [QuestionAnswer, QuestionAnswer][]
  changed: [QuestionAnswer, QuestionAnswer][]
  fresh: QuestionAnswer[]
  removed: QuestionAnswer[]
}

/** Pairs this questionnaire's questions with an earlier one's. */
export function pair(current: QuestionAnswer[], earlier: QuestionAnswer[]): Pairing {
  const used = new Set<QuestionAnswer>()
  const byText = new Map<string, QuestionAnswer[]>()
  for (const question of earlier) {
    const key = normalised(question.text)
    byText.set(key, [...(byText.get(key) ?? []), question])
  }
  const identical: Pairing['identical'] = []
  const rest: QuestionAnswer[] = []
  for (const question of current) {
    const same = (byText.get(normalised(question.text)) ?? []).filter((q) => !used.has(q))
    const match = same.find((q) => q.ref && q.ref === question.ref) ?? same[0]
    if (match) {
      used.add(match)
      identical.push([question, match])
    } else rest.push(question)
  }
  const words = new Map(earlier.map((question) => [question, wordsOf(question.text)]))
  const changed: Pairing['changed'] = []
  const fresh: QuestionAnswer[] = []
  for (const question of rest) {
    const mine = wordsOf(question.text)
    let best: QuestionAnswer | null = null
    let bestScore = 0
    for (const other of earlier) {
      if (used.has(other)) continue
      const score = overlap(mine, words.get(other) as Set<string>)
      const floor = question.ref && other.ref === question.ref ? REWORDED_SAME_REF : REWORDED
      if (score >= floor && score > bestScore) {
        best = other
        bestScore = score
      }
    }
    if (best) {
      used.add(best)
      changed.push([question, best])
    } else fresh.push(question)
  }
  return { identical, changed, fresh, removed: earlier.filter((q) => !used.has(q)) }
}

export function createCarryForward(deps: AnsweringDeps) {
  const { pool } = deps.database

  async function questionsOf(client: Queryable, questionnaireId: number) {
    const { rows } = await client.query<QuestionAnswer>(
      `select qq.id, qq.ref, qq.text, qq.selected_rank, a.id as answer_id, a.status, a.text as a_text,
              a.choice, a.comment, a.confidence, a.citations, a.note, a.updated_at as answered_at
         from questionnaire_questions qq
         join questionnaire_answers a on a.question_id = qq.id and a.rank = qq.selected_rank
        where qq.questionnaire_id = $1 and qq.deleted_at is null
        order by qq.position`,
      [questionnaireId],
    )
    return rows
  }

  /** Earlier questionnaires of the organisation this one matches, best first. */
  async function previous(orgId: number, id: number): Promise<PreviousMatch[]> {
    const questionnaire = await deps.questionnaires.get(orgId, id)
    const current = await questionsOf(pool, id)
    if (!current.length) return []
    const { rows: earlier } = await pool.query<{ id: string; name: string; created_at: Date }>(
      `select id, name, created_at from questionnaires
        where org_id = $1 and id <> $2 and created_at <= $3
        order by created_at desc limit ${CANDIDATES}`,
      [orgId, id, questionnaire.created_at],
    )
    const matches: PreviousMatch[] = []
    for (const other of earlier) {
      const pairing = pair(current, await questionsOf(pool, Number(other.id)))
      if (!pairing.identical.length && !pairing.changed.length) continue
      const score = Math.round((pairing.identical.length / current.length) * 1000) / 1000
      matches.push({
        questionnaire_id: Number(other.id),
        name: other.name,
        created_at: other.created_at.toISOString(),
        score,
        same_template: score >= SAME_TEMPLATE,
        identical: pairing.identical.length,
        changed: pairing.changed.length,
        new: pairing.fresh.length,
        removed: pairing.removed.length,
        approved: pairing.identical.filter(([, then]) => then.status === 'approved').length,
      })
    }
    return matches.sort((a, b) => b.score - a.score || b.created_at.localeCompare(a.created_at))
  }

  /**
   * Starts this questionnaire from an earlier one: each question asked in the same words takes
   * the earlier approved answer (approved again when the caller may approve and the approval is
   * within the organisation's review cycle; else awaiting approval), never over an answer a person
   * wrote here; reworded questions are marked with their earlier wording. One operation, undone
   * as one. `draft` then starts drafting the questions left unanswered.
   */
  async function carryForward(
    orgId: number,
    user: { id: number; canApprove: boolean },
    id: number,
    fromId: number,
    draft: () => Promise<boolean>,
  ): Promise<CarryForwardResponse> {
    if (fromId === id)
      throw apiError(400, QUESTIONNAIRE_TEXTS.carryFromItself, { code: 'validation_error' })
    const source = await deps.questionnaires
      .get(orgId, fromId)
      .catch(() => Promise.reject(notFound(QUESTIONNAIRE_TEXTS.carrySourceNotFound)))
    const target = await deps.questionnaires.get(orgId, id)
    if (target.status !== 'ready')
      throw apiError(409, QUESTIONNAIRE_TEXTS.carryWhileBusy, { code: 'conflict' })
    const { rows: org } = await pool.query<{ review_cycle_days: number }>(
      'select review_cycle_days from organizations where id = $1',
      [orgId],
    )
    const cycleMs = (org[0]?.review_cycle_days ?? 365) * 86_400_000
    let counts = { carried: 0, changed: 0, new: 0, removed: 0 }
    let removedQuestions: { ref: string | null; text: string }[] = []
    await deps.questionnaires.change(orgId, id, user.id, async (client) => {
      const current = await questionsOf(client, id)
      const pairing = pair(current, await questionsOf(client, fromId))
      const changes: Change[] = []
      const mark = (question: QuestionAnswer, then: QuestionAnswer, kind: CarriedFrom['kind']) =>
        client.query('update questionnaire_questions set carried = $2 where id = $1', [
          question.id,
          JSON.stringify({
            questionnaire_id: fromId,
            questionnaire_name: source.name,
            question_id: Number(then.id),
            kind,
            previous_text: then.text,
          } satisfies CarriedFrom),
        ])
      for (const [now, then] of pairing.identical) {
        if (then.status !== 'approved' || HUMAN.includes(now.status)) continue
        const withinCycle = Date.now() - then.answered_at.getTime() < cycleMs
        const before: AnswerState = stateOf({ ...now, text: now.a_text })
        const after: AnswerState = {
          text: then.a_text,
          choice: then.choice,
          comment: then.comment,
          status: user.canApprove && withinCycle ? 'approved' : 'edited',
          confidence: then.confidence,
          citations: then.citations,
          note: `${CARRIED_PREFIX} “${source.name}”, where it was approved on ${then.answered_at.toISOString().slice(0, 10)}${withinCycle ? '' : ': past the review cycle, approve it again once it is confirmed'}.`,
        }
        changes.push(
          await deps.questionnaires.writeAnswer(
            client,
            Number(now.answer_id),
            before,
            after,
            user.id,
          ),
        )
        await mark(now, then, 'carried')
      }
      for (const [now, then] of pairing.changed) await mark(now, then, 'changed')
      counts = {
        carried: changes.length,
        changed: pairing.changed.length,
        new: pairing.fresh.length,
        removed: pairing.removed.length,
      }
      removedQuestions = pairing.removed.map((q) => ({ ref: q.ref, text: q.text }))
      return {
        kind: 'carry_forward',
        summary: `Carried ${changes.length} answers forward from ${source.name}`,
        changes,
      }
    })
    const generating = await draft()
    return { ...counts, removed_questions: removedQuestions, generating }
  }

  return { previous, carryForward }
}
