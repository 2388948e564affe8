import type { PassageLocation } from '../../../contract/knowledge.ts'
import { detailOf, Library } from '../../answering/library.ts'
import type { LibraryEntry, PassageHit } from '../../answering/types.ts'
import type { Database } from '../../db/index.ts'

/**
 * The library as the engines read it (store.ts holds the rest of what answering reads): the
 * organisation's approved answers, the rows of its completed questionnaires and its data items,
 * each entry marked when it speaks for another product than the questionnaire's (issue 38).
 */

export async function loadLibrary(
  database: Database,
  orgId: number,
  /** The questionnaire it answers (issue 38): entries of another product than its own are marked. */
  questionnaireId?: number,
  /**
   * Issue 40: only what the organisation published on its trust centre (public Q&A items and the
   * rows of public files; no data items), for the public ask box.
   */
  options: { publicOnly?: boolean } = {},
): Promise<Library> {
  const { pool } = database
  const onlyPublic = options.publicOnly === true
  const [items, passages, data, forProduct] = await Promise.all([
    pool.query<{
      id: string
      question: string
      answer: string
      dropdown_value: string | null
      source: string | null
      last_reviewed_at: Date
      stale_at: Date
      product_id: string | null
      product_name: string | null
    }>(
      `select i.id, i.question, i.answer, i.dropdown_value, i.source, i.last_reviewed_at,
              i.last_reviewed_at + make_interval(days => coalesce(i.review_cycle_days, o.review_cycle_days)) as stale_at,
              i.product_id, pr.name as product_name
         from kb_qa_items i join organizations o on o.id = i.org_id
         left join products pr on pr.id = i.product_id
        where i.org_id = $1 and ($2::boolean is false or i.trust_visibility = 'public')`,
      [orgId, onlyPublic],
    ),
    pool.query<
      AnsweredRowDb & {
        answered_at: Date
        stale_at: Date
        product_id: string | null
        product_name: string | null
      }
    >(
      `select p.id, p.file_id, f.name, p.qa_question, p.qa_answer, p.text, p.location,
              coalesce(f.stated_at, f.created_at) as answered_at,
              coalesce(f.stated_at, f.created_at) + make_interval(days => o.review_cycle_days) as stale_at,
              f.product_id, pr.name as product_name
         from file_passages p join repository_files f on f.id = p.file_id and f.status = 'ready'
         join organizations o on o.id = p.org_id
         left join products pr on pr.id = f.product_id
        where p.org_id = $1 and p.qa_question is not null and p.qa_answer is not null
          and ($2::boolean is false or f.trust_visibility = 'public')`,
      [orgId, onlyPublic],
    ),
    pool.query<{ id: string; title: string; value: string }>(
      'select id, title, value from kb_data_items where org_id = $1 and not $2::boolean',
      [orgId, onlyPublic],
    ),
    questionnaireId === undefined
      ? Promise.resolve({ rows: [] as { id: string; name: string }[] })
      : pool.query<{ id: string; name: string }>(
          `select pr.id, pr.name from questionnaires q join products pr on pr.id = q.product_id
            where q.org_id = $1 and q.id = $2`,
          [orgId, questionnaireId],
        ),
  ])
  // issue 38: an entry of another product than the questionnaire's is that product's, not this one's
  const own = forProduct.rows[0]
  const otherProduct = (row: { product_id: string | null; product_name: string | null }) =>
    own && row.product_id !== null && row.product_id !== own.id && row.product_name
      ? { name: row.product_name, forProduct: own.name }
      : null
  const entries: LibraryEntry[] = [
    ...items.rows.map((row) => ({
      source: 'qa' as const,
      id: Number(row.id),
      fileId: null,
      title: row.source ? `Knowledge base: ${row.source}` : 'Knowledge base answer',
      question: row.question,
      answer: row.answer,
      detail: '',
      dropdown: row.dropdown_value,
      location: null,
      reviewedAt: row.last_reviewed_at,
      staleAt: row.stale_at,
      otherProduct: otherProduct(row),
    })),
    ...passages.rows.map((row) => ({
      source: 'file' as const,
      id: Number(row.id),
      fileId: Number(row.file_id),
      title: row.name,
      question: row.qa_question,
      ...answerOfRow(row),
      dropdown: null,
      location: row.location,
      // a completed questionnaire is dated by the day it states, else its upload
      reviewedAt: row.answered_at,
      staleAt: row.stale_at,
      otherProduct: otherProduct(row),
    })),
  ]
  const library = new Library(entries, data.rows.map(dataItemHit))
  // whose practice a sentence states: the organisation's names and its products' (parties.ts)
  const { rows: names } = await pool.query<{ name: string }>(
    `select name from organizations where id = $1
      union all select name from products where org_id = $1
      union all select unnest(aliases) from products where org_id = $1`,
    [orgId],
  )
  library.ownNames = names.map((row) => row.name).filter((name) => name.trim())
  if (own) {
    // the repository files of other products: their sentences are those products' (products.ts)
    const { rows } = await pool.query<{ id: string; name: string }>(
      `select f.id, pr.name from repository_files f join products pr on pr.id = f.product_id
        where f.org_id = $1 and f.product_id <> $2`,
      [orgId, own.id],
    )
    library.productScope = {
      forProduct: own.name,
      otherFiles: new Map(rows.map((row) => [Number(row.id), row.name])),
    }
  }
  return library
}

/** A data item as a passage ('Company name: Acme Ltd'), cited as the organisation's data. */
export const dataItemHit = (row: { id: string; title: string; value: string }): PassageHit => ({
  id: Number(row.id),
  fileId: null,
  source: 'data',
  title: row.title,
  text: `${row.title}: ${row.value}`,
  location: null,
  rank: 0,
})

/** A row of a completed questionnaire in the repository: its passage, with its file's name. */
export interface AnsweredRowDb {
  id: string
  file_id: string
  name: string
  qa_question: string
  qa_answer: string
  text: string
  location: PassageLocation | null
}

/** A questionnaire row's answer and narrative, from the passage ingestion made of it. */
export function answerOfRow(row: { qa_answer: string; text: string }) {
  // 'Yes\n\nnarrative' from questionnaire ingestion; a label line in older passages
  const [answer, ...rest] = row.qa_answer.split(/\n\s*\n/)
  return { answer: (answer ?? '').trim(), detail: rest.join('\n\n').trim() || detailOf(row.text) }
}
