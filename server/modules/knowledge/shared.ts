import { freshnessOf, reviewDueAt } from '../../../contract/freshness.ts'
import type { DataItem, QaItem } from '../../../contract/knowledge.ts'
import type { Database } from '../../db/index.ts'
import { personOf, type UserCols } from '../../db/people.ts'

/**
 * The knowledge base: Q&A items and data items of an organisation, and search across them and
 * the passages of its ready files. Every query carries the caller's org id.
 */

export const questionKey = (question: string) => question.toLowerCase().replace(/\s+/g, ' ').trim()

export type { UserCols } from '../../db/people.ts'
/** The user behind a row, as the API shows them. */
export const userRef = personOf

export type QaRow = UserCols & {
  id: string
  question: string
  answer: string
  dropdown_value: string | null
  tags: string[]
  source: string | null
  source_file_id: string | null
  owner_id: string | null
  owner_first_name: string | null
  owner_last_name: string | null
  owner_email: string | null
  reviewer_id: string | null
  reviewer_first_name: string | null
  reviewer_last_name: string | null
  reviewer_email: string | null
  last_reviewed_at: Date
  /** The item's cycle, else the organisation's. */
  cycle_days: number
  cycle_inherited: boolean
  product_id: string | null
  created_at: Date
  updated_at: Date
}
export type DataRow = UserCols & {
  id: string
  title: string
  value: string
  tags: string[]
  source: string | null
  created_at: Date
  updated_at: Date
}

export const toQa = (row: QaRow): QaItem => ({
  id: Number(row.id),
  question: row.question,
  answer: row.answer,
  dropdown_value: row.dropdown_value,
  tags: row.tags,
  source: row.source,
  source_file_id: row.source_file_id === null ? null : Number(row.source_file_id),
  owner_id: row.owner_id === null ? null : Number(row.owner_id),
  owner: personOf({
    user_id: row.owner_id,
    first_name: row.owner_first_name,
    last_name: row.owner_last_name,
    email: row.owner_email,
  }),
  last_reviewed_at: row.last_reviewed_at.toISOString(),
  reviewed_by: personOf({
    user_id: row.reviewer_id,
    first_name: row.reviewer_first_name,
    last_name: row.reviewer_last_name,
    email: row.reviewer_email,
  }),
  review_cycle_days: row.cycle_days,
  review_cycle_inherited: row.cycle_inherited,
  review_due_at: reviewDueAt(row.last_reviewed_at, row.cycle_days).toISOString(),
  freshness: freshnessOf(row.last_reviewed_at, row.cycle_days),
  created_by: userRef(row),
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
  product_id:
    row.product_id === null || row.product_id === undefined ? null : Number(row.product_id),
})
export const toData = (row: DataRow): DataItem => ({
  id: Number(row.id),
  title: row.title,
  value: row.value,
  tags: row.tags,
  source: row.source,
  created_by: userRef(row),
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
})

export const USER_COLS = 'u.id as user_id, u.first_name, u.last_name, u.email'
/** What a Q&A item's query joins and selects beyond its row: owner, reviewer, review cycle. */
export const QA_FROM = `kb_qa_items i
  join organizations o on o.id = i.org_id
  left join users u on u.id = i.created_by
  left join users ow on ow.id = i.owner_id
  left join users rv on rv.id = i.reviewed_by`
export const QA_COLS = `i.*, ${USER_COLS},
  ow.first_name as owner_first_name, ow.last_name as owner_last_name, ow.email as owner_email,
  rv.id as reviewer_id, rv.first_name as reviewer_first_name, rv.last_name as reviewer_last_name,
  rv.email as reviewer_email,
  coalesce(i.review_cycle_days, o.review_cycle_days) as cycle_days,
  i.review_cycle_days is null as cycle_inherited`
/** When a Q&A item (aliases of QA_FROM) falls stale, in SQL. */
export const QA_DUE_SQL = `(i.last_reviewed_at + make_interval(days => coalesce(i.review_cycle_days, o.review_cycle_days)))`
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (m) => `\\${m}`)
/** HTML-escapes a column in SQL so that ts_headline's <mark> tags are the only markup. */
export const escaped = (column: string) =>
  `replace(replace(replace(replace(${column}, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;')`
/** Passages ranked per search at most; see search(). */
export const RANK_CANDIDATES = 1_000
export const HEADLINE = `'StartSel=<mark>, StopSel=</mark>, MaxWords=40, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "'`

/** What the knowledge base is built from. */
export interface KnowledgeDeps {
  database: Database
}
