import { QUESTIONNAIRE_TEXTS } from '../../../contract/questionnaires.ts'
import { Library } from '../../answering/engine.ts'
import { leadingChoice } from '../../answering/text.ts'
import { inTransaction } from '../../db/index.ts'
import { apiError, notFound } from '../../http/errors.ts'
import { questionKey } from '../knowledge/service.ts'
import type { AnsweringDeps } from './shared.ts'

/**
 * The approved library seen from answers: saving an answer to it, and its health (duplicates, conflicts, stale entries).
 */
export function createLibraryOperations(deps: AnsweringDeps) {
  const { pool } = deps.database

  /** Adds an answer to the library as a Q&A item, or updates the item that asks the same question. */
  async function saveToLibrary(orgId: number, userId: number, answerId: number) {
    const { rows } = await pool.query<{
      question: string
      text: string
      choice: string | null
      name: string
    }>(
      `select qq.text as question, a.text, a.choice, q.name
         from questionnaire_answers a
         join questionnaire_questions qq on qq.id = a.question_id and qq.deleted_at is null
         join questionnaires q on q.id = a.questionnaire_id
        where a.org_id = $1 and a.id = $2`,
      [orgId, answerId],
    )
    const row = rows[0]
    if (!row) throw notFound(QUESTIONNAIRE_TEXTS.answerNotFound)
    const answer = [row.choice && !row.text.trim() ? row.choice : '', row.text.trim()]
      .filter(Boolean)
      .join('')
    if (!answer) throw apiError(400, QUESTIONNAIRE_TEXTS.emptyAnswer, { code: 'validation_error' })
    const key = questionKey(row.question)
    return await inTransaction(pool, async (client) => {
      const existing = await client.query<{ id: string }>(
        'select id from kb_qa_items where org_id = $1 and question_key = $2 order by id limit 1 for update',
        [orgId, key],
      )
      let id: number
      let created = false
      if (existing.rows[0]) {
        id = Number(existing.rows[0].id)
        await client.query(
          `update kb_qa_items set answer = $3, dropdown_value = $4, source = $5, updated_by = $6, updated_at = now()
            where org_id = $1 and id = $2`,
          [orgId, id, answer, row.choice, `Questionnaire: ${row.name}`.slice(0, 500), userId],
        )
      } else {
        const inserted = await client.query<{ id: string }>(
          `insert into kb_qa_items (org_id, question, answer, dropdown_value, source, question_key, created_by, updated_by)
           values ($1, $2, $3, $4, $5, $6, $7, $7) returning id`,
          [
            orgId,
            row.question,
            answer,
            row.choice,
            `Questionnaire: ${row.name}`.slice(0, 500),
            key,
            userId,
          ],
        )
        id = Number(inserted.rows[0]?.id)
        created = true
      }
      return { item_id: id, created }
    })
  }

  /**
   * Library upkeep: Q&A items that ask the same question (same terms, or a match of 0.9 and more).
   * A group whose items answer Yes and No is a conflict; otherwise the copies are duplicates.
   */
  async function libraryHealth(orgId: number) {
    const { rows } = await pool.query<{
      id: string
      question: string
      answer: string
      dropdown_value: string | null
      updated_at: Date
    }>(
      'select id, question, answer, dropdown_value, updated_at from kb_qa_items where org_id = $1 order by id',
      [orgId],
    )
    const library = new Library(
      rows.map((row) => ({
        source: 'qa' as const,
        id: Number(row.id),
        fileId: null,
        title: '',
        question: row.question,
        // every item takes part, whatever its answer says
        answer: `${row.id}\u001f${row.answer}`,
        detail: '',
        dropdown: null,
        location: null,
      })),
    )
    const parent = new Map<number, number>()
    const find = (id: number): number => {
      const up = parent.get(id) ?? id
      if (up === id) return id
      const top = find(up)
      parent.set(id, top)
      return top
    }
    for (const row of rows) {
      for (const match of library.match(row.question, 6)) {
        if (match.score < 0.9 || match.entry.id === Number(row.id)) continue
        parent.set(find(match.entry.id), find(Number(row.id)))
      }
    }
    const groups = new Map<number, typeof rows>()
    for (const row of rows) {
      const root = find(Number(row.id))
      groups.set(root, [...(groups.get(root) ?? []), row])
    }
    return {
      groups: [...groups.values()]
        .filter((group) => group.length > 1)
        .map((group) => {
          const choices = new Set(
            group
              .map((item) => leadingChoice(item.dropdown_value ?? item.answer))
              .filter((choice) => choice !== null),
          )
          return {
            kind: choices.size > 1 ? ('conflict' as const) : ('duplicate' as const),
            items: group.map((item) => ({
              id: Number(item.id),
              question: item.question,
              answer: item.answer,
              dropdown_value: item.dropdown_value,
              updated_at: item.updated_at.toISOString(),
            })),
          }
        })
        .sort((a, b) => Number(b.kind === 'conflict') - Number(a.kind === 'conflict')),
    }
  }

  return { saveToLibrary, libraryHealth }
}

export type LibraryOperations = ReturnType<typeof createLibraryOperations>
