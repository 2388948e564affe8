import type { AnswerStatus } from '../../../contract/answers.ts'
import type {
  CitingAnswer,
  FileDetails,
  FilePassage,
  FilePassageQuery,
  FileStatusStep,
} from '../../../contract/file-page.ts'
import { MAX_CITING_LISTED } from '../../../contract/file-page.ts'
import type { FileStatus, PassageLocation } from '../../../contract/knowledge.ts'
import { fetchPage } from '../../db/paging.ts'
import type { Files } from './files.ts'
import { FIRST_PART_OF_ROW, type RepositoryDeps } from './shared.ts'
import type { createVersions } from './versions.ts'

/**
 * A file's own page (issue 30): the file with every status it has been in (recorded by a trigger,
 * migration 0026), its versions, the answers of questionnaires and the library items that cite
 * it, and what was read from it, paged. The file is looked up in the caller's organisation first:
 * another organisation's id is not found.
 */
export function createFileDetails(
  deps: RepositoryDeps,
  files: Files,
  versions: Pick<ReturnType<typeof createVersions>, 'versions'>,
) {
  const { pool } = deps.database

  async function details(orgId: number, id: number): Promise<FileDetails> {
    // 404 for another organisation's file, before anything else is read
    const file = await files.getFile(orgId, id)
    const cites = JSON.stringify([{ source: 'file', id }])
    const [history, listed, answers, items] = await Promise.all([
      pool.query<{ status: FileStatus; version: number; error: string | null; at: Date }>(
        `select status, version, error, at from file_status_history
          where org_id = $1 and file_id = $2 order by at, id`,
        [orgId, id],
      ),
      versions.versions(orgId, id),
      pool.query<{
        questionnaire_id: string
        questionnaire_name: string
        question_id: string
        question: string
        answer: string
        status: AnswerStatus
        total: number
      }>(
        `select q.id as questionnaire_id, q.name as questionnaire_name, qq.id as question_id,
                qq.text as question, a.text as answer, a.status, count(*) over ()::int as total
           from questionnaire_answers a
           join questionnaire_questions qq on qq.id = a.question_id and qq.deleted_at is null
           join questionnaires q on q.id = a.questionnaire_id
          where a.org_id = $1 and a.rank = qq.selected_rank and a.citations @> $2::jsonb
          order by a.updated_at desc, a.id desc
          limit ${MAX_CITING_LISTED}`,
        [orgId, cites],
      ),
      pool.query<{ id: string; question: string; answer: string }>(
        `select id, question, answer from kb_qa_items
          where org_id = $1 and source_file_id = $2 order by updated_at desc, id desc limit 100`,
        [orgId, id],
      ),
    ])
    return {
      file,
      history: history.rows.map(
        (row): FileStatusStep => ({
          status: row.status,
          version: row.version,
          error: row.error,
          at: row.at.toISOString(),
        }),
      ),
      versions: listed.results,
      answers: answers.rows.map(
        (row): CitingAnswer => ({
          questionnaire_id: Number(row.questionnaire_id),
          questionnaire_name: row.questionnaire_name,
          question_id: Number(row.question_id),
          question: row.question,
          answer: row.answer,
          status: row.status,
        }),
      ),
      answers_count: answers.rows[0]?.total ?? 0,
      items: items.rows.map((row) => ({
        id: Number(row.id),
        question: row.question,
        answer: row.answer,
      })),
    }
  }

  /** What was read from the file, in reading order; a long row cut in parts is listed once. */
  async function passages(orgId: number, id: number, query: FilePassageQuery) {
    await files.getFile(orgId, id)
    if (query.at_page) {
      // the list's page that holds the first passage of the document's page
      const { rows: before } = await pool.query<{ n: string }>(
        `select count(*) as n from file_passages p
          where p.org_id = $1 and p.file_id = $2 and ${FIRST_PART_OF_ROW}
            and coalesce((p.location->>'page')::int, 0) < $3`,
        [orgId, id, query.at_page],
      )
      query = { ...query, page: Math.floor(Number(before[0]?.n ?? 0) / query.page_size) + 1 }
    }
    const { count, rows } = await fetchPage<{
      id: string
      ordinal: number
      text: string
      location: PassageLocation | null
      qa_question: string | null
      qa_answer: string | null
    }>(
      pool,
      {
        select:
          'select p.id, p.ordinal, p.text, p.location, p.qa_question, p.qa_answer from file_passages p',
        counted: 'file_passages p',
        where: `p.org_id = $1 and p.file_id = $2 and ${FIRST_PART_OF_ROW}`,
        order: 'p.ordinal, p.id',
      },
      [orgId, id],
      query,
    )
    return {
      count,
      page: query.page,
      results: rows.map(
        (row): FilePassage => ({
          id: Number(row.id),
          ordinal: row.ordinal,
          text: row.text,
          location: row.location && Object.keys(row.location).length ? row.location : null,
          question: row.qa_question,
          answer: row.qa_answer,
        }),
      ),
    }
  }

  return { details, passages }
}
