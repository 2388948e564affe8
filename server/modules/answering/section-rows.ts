import type { Citation, SectionPreview } from '../../../contract/questionnaires.ts'
import type { Change } from '../questionnaires/service.ts'
import {
  type AnswerState,
  PREVIOUS_QUESTION,
  type Queryable,
  type QuestionDb,
  stateOf,
} from './shared.ts'

/**
 * The rows a section operation works on, and the preview of what it would change (issue 30: a
 * bulk change is shown and confirmed before it is made).
 */

/** Rows of a tab (or given questions) with their selected answers, for section operations. */
export async function sectionRows(
  client: Queryable,
  orgId: number,
  questionnaireId: number,
  scope: { tab_id?: number; question_ids?: number[] },
) {
  const values: unknown[] = [orgId, questionnaireId]
  let filter = ''
  if (scope.question_ids?.length) {
    values.push(scope.question_ids)
    filter = `and qq.id = any($${values.length}::bigint[])`
  } else if (scope.tab_id) {
    values.push(scope.tab_id)
    filter = `and qq.tab_id = $${values.length}`
  }
  const { rows } = await client.query<
    QuestionDb & AnswerState & { answer_id: string; citations: Citation[] }
  >(
    `select qq.id, qq.text, qq.ref, qq.position, qq.tab_id, qq.section, qq.vocabulary, qq.selected_rank,
            ${PREVIOUS_QUESTION}, a.id as answer_id, a.text as text_answer, a.choice, a.comment, a.status, a.confidence, a.citations, a.note
       from questionnaire_questions qq
       join questionnaire_answers a on a.question_id = qq.id and a.rank = qq.selected_rank
      where qq.org_id = $1 and qq.questionnaire_id = $2 and qq.deleted_at is null ${filter}
      order by qq.position
      for update of a`,
    values,
  )
  return rows.map((row) => {
    const raw = row as unknown as Record<string, unknown>
    return {
      question: row,
      answerId: Number(raw.answer_id),
      state: stateOf({ ...row, text: String(raw.text_answer ?? '') } as AnswerState),
    }
  })
}

export type SectionRow = Awaited<ReturnType<typeof sectionRows>>[number]

/** What a previewed section operation would change: each answer before and after, in order. */
export function previewOf(
  changes: Change[],
  rows: SectionRow[],
  contradictions: SectionPreview['contradictions'],
): SectionPreview {
  const byAnswer = new Map(rows.map((row) => [row.answerId, row.question]))
  const proposed = changes.flatMap((change) => {
    const question = change.t === 'a' ? byAnswer.get(change.id) : undefined
    if (!question || change.t !== 'a') return []
    return [
      {
        question_id: Number(question.id),
        ref: question.ref,
        question: question.text,
        before: { text: change.before?.text ?? '', choice: change.before?.choice ?? null },
        after: { text: change.after.text, choice: change.after.choice },
      },
    ]
  })
  return { changes: proposed, contradictions }
}
