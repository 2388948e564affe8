import { writeAudit } from '../../db/audit.ts'
import type { Database } from '../../db/index.ts'
import { questionKey } from './shared.ts'

type Queryable = Pick<Database['pool'], 'query'>

/**
 * An approved answer into the library: the Q&A item that asks the same question takes the answer
 * (and names the questionnaire it came from), or a new item is added; either way it counts as
 * reviewed now, by the approver (issue 28). Called inside the caller's
 * transaction, so that an approval and its library entry land together.
 */
export async function upsertApprovedAnswer(
  client: Queryable,
  orgId: number,
  userId: number,
  answer: { question: string; text: string; choice: string | null; questionnaire: string },
): Promise<{ item_id: number; created: boolean } | null> {
  const text = answer.text.trim() || answer.choice || ''
  if (!text || !answer.question.trim()) return null
  const source = `Questionnaire: ${answer.questionnaire}`.slice(0, 500)
  const key = questionKey(answer.question)
  const existing = await client.query<{ id: string }>(
    'select id from kb_qa_items where org_id = $1 and question_key = $2 order by id limit 1 for update',
    [orgId, key],
  )
  const id = existing.rows[0]?.id
  const audit = (itemId: number, created: boolean) =>
    writeAudit(
      client,
      { orgId, actorId: userId },
      {
        action: 'qa.saved_from_answer',
        target: `qa:${itemId}`,
        name: answer.question,
        detail: { created, questionnaire: answer.questionnaire },
      },
    )
  if (id) {
    await client.query(
      `update kb_qa_items set answer = $3, dropdown_value = $4, source = $5, updated_by = $6, updated_at = now(),
         last_reviewed_at = now(), reviewed_by = $6
        where org_id = $1 and id = $2`,
      [orgId, id, text, answer.choice, source, userId],
    )
    await audit(Number(id), false)
    return { item_id: Number(id), created: false }
  }
  const inserted = await client.query<{ id: string }>(
    `insert into kb_qa_items (org_id, question, answer, dropdown_value, source, question_key, created_by, updated_by, reviewed_by)
     values ($1, $2, $3, $4, $5, $6, $7, $7, $7) returning id`,
    [orgId, answer.question, text, answer.choice, source, key, userId],
  )
  await audit(Number(inserted.rows[0]?.id), true)
  return { item_id: Number(inserted.rows[0]?.id), created: true }
}
