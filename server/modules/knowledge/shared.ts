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
  created_by: userRef(row),
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
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
