import { listPage } from '../../db/paging.ts'
import { type AnsweredRowDb, answerOfRow } from '../answering/store.ts'
import { FIRST_PART_OF_ROW } from '../repository/shared.ts'
import { escapeLike, type KnowledgeDeps } from './shared.ts'

/**
 * The rows of completed questionnaires in the repository, as the library reads them: what the
 * engine answers from besides the Q&A items, shown on the Q&A tab with their file, so that people
 * see and curate it (by replacing or deleting the file, or adding a Q&A item that overrides a row).
 */
export function createAnsweredRows(deps: KnowledgeDeps) {
  const { pool } = deps.database

  async function listAnswered(
    orgId: number,
    query: { page: number; page_size: number; q?: string; id?: number },
  ) {
    const where = [
      'p.org_id = $1',
      'p.qa_question is not null',
      'p.qa_answer is not null',
      "f.status = 'ready'",
      // a long row is cut into parts that all carry its question: listed once
      FIRST_PART_OF_ROW,
    ]
    const values: unknown[] = [orgId]
    // one row by its passage: a link that opens it (a chat's citation)
    if (query.id) {
      values.push(query.id)
      where.push(`p.id = $${values.length}`)
    }
    const text = query.q?.trim()
    if (text) {
      values.push(`%${escapeLike(text)}%`)
      where.push(
        `(p.qa_question ilike $${values.length} or p.qa_answer ilike $${values.length} or f.name ilike $${values.length})`,
      )
    }
    return listPage(
      pool,
      {
        select: `select p.id, p.file_id, f.name, p.qa_question, p.qa_answer, p.text, p.location
                   from file_passages p join repository_files f on f.id = p.file_id`,
        counted: 'file_passages p join repository_files f on f.id = p.file_id',
        where: where.join(' and '),
        order: 'f.name, p.file_id, p.id',
      },
      values,
      query,
      (row: AnsweredRowDb) => ({
        id: Number(row.id),
        question: row.qa_question,
        ...answerOfRow(row),
        file_id: Number(row.file_id),
        file_name: row.name,
        location: row.location,
      }),
    )
  }

  return { listAnswered }
}
