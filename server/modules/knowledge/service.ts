import type { DataItem, ImportMapping, QaItem, SearchResult } from '../../../contract/knowledge.ts'
import { KNOWLEDGE_TEXTS } from '../../../contract/knowledge.ts'
import { EMPTY_TSQUERY, tsLexeme } from '../../answering/tsquery.ts'
import type { Database } from '../../db/index.ts'
import { apiError, notFound } from '../../http/errors.ts'
import { cleanTags } from '../repository/service.ts'

/**
 * The knowledge base: Q&A items and data items of an organisation, and search across them and
 * the passages of its ready files. Every query carries the caller's org id.
 */

export const questionKey = (question: string) => question.toLowerCase().replace(/\s+/g, ' ').trim()

interface UserCols {
  user_id: string | null
  first_name: string | null
  last_name: string | null
  email: string | null
}
const userRef = (row: UserCols) =>
  row.user_id
    ? {
        id: String(row.user_id),
        name: `${row.first_name ?? ''} ${row.last_name ?? ''}`.trim() || (row.email ?? ''),
        email: row.email ?? '',
      }
    : null

type QaRow = UserCols & {
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
type DataRow = UserCols & {
  id: string
  title: string
  value: string
  tags: string[]
  source: string | null
  created_at: Date
  updated_at: Date
}

const toQa = (row: QaRow): QaItem => ({
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
const toData = (row: DataRow): DataItem => ({
  id: Number(row.id),
  title: row.title,
  value: row.value,
  tags: row.tags,
  source: row.source,
  created_by: userRef(row),
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
})

const USER_COLS = 'u.id as user_id, u.first_name, u.last_name, u.email'
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (m) => `\\${m}`)
/** HTML-escapes a column in SQL so that ts_headline's <mark> tags are the only markup. */
const escaped = (column: string) =>
  `replace(replace(replace(replace(${column}, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;')`
/** Passages ranked per search at most; see search(). */
const RANK_CANDIDATES = 1_000
const HEADLINE = `'StartSel=<mark>, StopSel=</mark>, MaxWords=40, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "'`

export function createKnowledgeService(deps: { database: Database }) {
  const { pool } = deps.database

  /* ------------------------------------------------------------ Q&A items */

  async function getQa(orgId: number, id: number) {
    const { rows } = await pool.query<QaRow>(
      `select q.*, ${USER_COLS} from kb_qa_items q left join users u on u.id = q.created_by where q.org_id = $1 and q.id = $2`,
      [orgId, id],
    )
    if (!rows[0]) throw notFound(KNOWLEDGE_TEXTS.itemNotFound)
    return toQa(rows[0])
  }

  function filters(
    table: 'q' | 'd',
    textColumns: string,
    orgId: number,
    query: { q?: string; tag?: string },
  ) {
    const where = [`${table}.org_id = $1`]
    const values: unknown[] = [orgId]
    if (query.q?.trim()) {
      values.push(query.q.trim(), `%${escapeLike(query.q.trim())}%`)
      where.push(
        `(${table}.tsv @@ websearch_to_tsquery('english', $${values.length - 1}) or ${textColumns
          .split(',')
          .map((c) => `${table}.${c.trim()} ilike $${values.length}`)
          .join(' or ')})`,
      )
    }
    if (query.tag) {
      values.push(query.tag.toLowerCase())
      where.push(
        `exists (select 1 from unnest(${table}.tags) t where lower(t) = $${values.length})`,
      )
    }
    return { where: where.join(' and '), values }
  }

  async function listQa(
    orgId: number,
    query: { page: number; page_size: number; q?: string; tag?: string },
  ) {
    const { where, values } = filters('q', 'question, answer', orgId, query)
    const count = await pool.query<{ count: string }>(
      `select count(*) from kb_qa_items q where ${where}`,
      values,
    )
    const { rows } = await pool.query<QaRow>(
      `select q.*, ${USER_COLS} from kb_qa_items q left join users u on u.id = q.created_by where ${where}
        order by q.updated_at desc, q.id desc limit $${values.length + 1} offset $${values.length + 2}`,
      [...values, query.page_size, (query.page - 1) * query.page_size],
    )
    return { count: Number(count.rows[0]?.count ?? 0), results: rows.map(toQa) }
  }

  async function createQa(
    orgId: number,
    userId: number,
    input: {
      question: string
      answer: string
      dropdown_value: string | null
      tags: string[]
      source: string | null
    },
  ) {
    const { rows } = await pool.query<{ id: string }>(
      `insert into kb_qa_items (org_id, question, answer, dropdown_value, tags, source, question_key, created_by, updated_by)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $8) returning id`,
      [
        orgId,
        input.question,
        input.answer,
        input.dropdown_value || null,
        cleanTags(input.tags),
        input.source || null,
        questionKey(input.question),
        userId,
      ],
    )
    return getQa(orgId, Number(rows[0]?.id))
  }

  async function updateQa(
    orgId: number,
    userId: number,
    id: number,
    input: Partial<{
      question: string
      answer: string
      dropdown_value: string | null
      tags: string[]
      source: string | null
    }>,
  ) {
    const current = await getQa(orgId, id)
    const next = {
      question: input.question ?? current.question,
      answer: input.answer ?? current.answer,
      dropdown_value:
        input.dropdown_value === undefined ? current.dropdown_value : input.dropdown_value || null,
      tags: input.tags === undefined ? current.tags : cleanTags(input.tags),
      source: input.source === undefined ? current.source : input.source || null,
    }
    await pool.query(
      `update kb_qa_items set question = $3, answer = $4, dropdown_value = $5, tags = $6, source = $7, question_key = $8,
         updated_by = $9, updated_at = now() where org_id = $1 and id = $2`,
      [
        orgId,
        id,
        next.question,
        next.answer,
        next.dropdown_value,
        next.tags,
        next.source,
        questionKey(next.question),
        userId,
      ],
    )
    return getQa(orgId, id)
  }

  async function deleteQa(orgId: number, id: number) {
    const { rowCount } = await pool.query('delete from kb_qa_items where org_id = $1 and id = $2', [
      orgId,
      id,
    ])
    if (!rowCount) throw notFound(KNOWLEDGE_TEXTS.itemNotFound)
  }

  /* ------------------------------------------------------------ data items */

  async function getData(orgId: number, id: number) {
    const { rows } = await pool.query<DataRow>(
      `select d.*, ${USER_COLS} from kb_data_items d left join users u on u.id = d.created_by where d.org_id = $1 and d.id = $2`,
      [orgId, id],
    )
    if (!rows[0]) throw notFound(KNOWLEDGE_TEXTS.itemNotFound)
    return toData(rows[0])
  }

  async function listData(
    orgId: number,
    query: { page: number; page_size: number; q?: string; tag?: string },
  ) {
    const { where, values } = filters('d', 'title, value', orgId, query)
    const count = await pool.query<{ count: string }>(
      `select count(*) from kb_data_items d where ${where}`,
      values,
    )
    const { rows } = await pool.query<DataRow>(
      `select d.*, ${USER_COLS} from kb_data_items d left join users u on u.id = d.created_by where ${where}
        order by d.updated_at desc, d.id desc limit $${values.length + 1} offset $${values.length + 2}`,
      [...values, query.page_size, (query.page - 1) * query.page_size],
    )
    return { count: Number(count.rows[0]?.count ?? 0), results: rows.map(toData) }
  }

  async function createData(
    orgId: number,
    userId: number,
    input: { title: string; value: string; tags: string[]; source: string | null },
  ) {
    const { rows } = await pool.query<{ id: string }>(
      `insert into kb_data_items (org_id, title, value, tags, source, created_by, updated_by)
       values ($1, $2, $3, $4, $5, $6, $6) returning id`,
      [orgId, input.title, input.value, cleanTags(input.tags), input.source || null, userId],
    )
    return getData(orgId, Number(rows[0]?.id))
  }

  async function updateData(
    orgId: number,
    userId: number,
    id: number,
    input: Partial<{ title: string; value: string; tags: string[]; source: string | null }>,
  ) {
    const current = await getData(orgId, id)
    await pool.query(
      `update kb_data_items set title = $3, value = $4, tags = $5, source = $6, updated_by = $7, updated_at = now()
        where org_id = $1 and id = $2`,
      [
        orgId,
        id,
        input.title ?? current.title,
        input.value ?? current.value,
        input.tags === undefined ? current.tags : cleanTags(input.tags),
        input.source === undefined ? current.source : input.source || null,
        userId,
      ],
    )
    return getData(orgId, id)
  }

  async function deleteData(orgId: number, id: number) {
    const { rowCount } = await pool.query(
      'delete from kb_data_items where org_id = $1 and id = $2',
      [orgId, id],
    )
    if (!rowCount) throw notFound(KNOWLEDGE_TEXTS.itemNotFound)
  }

  /* ------------------------------------------------------------ import */

  async function importQa(
    orgId: number,
    userId: number,
    sheets: { name: string; rows: string[][] }[],
    mapping: Required<ImportMapping>,
    filename: string,
  ) {
    const sheet = sheets.find((s) => s.name === mapping.sheet)
    if (!sheet)
      throw apiError(400, KNOWLEDGE_TEXTS.importSheetMissing.replace('{sheet}', mapping.sheet), {
        code: 'validation_error',
      })
    const col = (key: string | null) =>
      key ? [...key].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1 : -1
    const q = col(mapping.question)
    const a = col(mapping.answer)
    const d = col(mapping.dropdown)
    const t = col(mapping.tags_column)
    const items = new Map<
      string,
      { question: string; answer: string; dropdown: string | null; tags: string[] }
    >()
    let skipped = 0
    for (const row of sheet.rows.slice(mapping.header_row)) {
      const question = row[q]?.trim() ?? ''
      const dropdown = d >= 0 ? row[d]?.trim() || null : null
      const answer = row[a]?.trim() || dropdown || ''
      if (!question || !answer) {
        if (row.some((cell) => cell.trim())) skipped += 1
        continue
      }
      const rowTags = t >= 0 ? (row[t] ?? '').split(/[,;]/) : []
      items.set(questionKey(question), {
        question: question.slice(0, 4000),
        answer: answer.slice(0, 20_000),
        dropdown: dropdown ? dropdown.slice(0, 100) : null,
        tags: cleanTags([...mapping.tags, ...rowTags]).slice(0, 20),
      })
    }
    if (!items.size) throw apiError(400, KNOWLEDGE_TEXTS.importNoRows, { code: 'validation_error' })
    const client = await pool.connect()
    let created = 0
    let updated = 0
    try {
      await client.query('begin')
      for (const [key, item] of items) {
        const existing = await client.query<{ id: string }>(
          'select id from kb_qa_items where org_id = $1 and question_key = $2 order by id limit 1 for update',
          [orgId, key],
        )
        if (existing.rows[0]) {
          await client.query(
            `update kb_qa_items set question = $3, answer = $4, dropdown_value = $5, tags = $6, source = $7, updated_by = $8, updated_at = now()
              where org_id = $1 and id = $2`,
            [
              orgId,
              existing.rows[0].id,
              item.question,
              item.answer,
              item.dropdown,
              item.tags,
              filename,
              userId,
            ],
          )
          updated += 1
        } else {
          await client.query(
            `insert into kb_qa_items (org_id, question, answer, dropdown_value, tags, source, question_key, created_by, updated_by)
             values ($1, $2, $3, $4, $5, $6, $7, $8, $8)`,
            [orgId, item.question, item.answer, item.dropdown, item.tags, filename, key, userId],
          )
          created += 1
        }
      }
      await client.query('commit')
    } catch (error) {
      await client.query('rollback').catch(() => undefined)
      throw error
    } finally {
      client.release()
    }
    return { created, updated, skipped }
  }

  /* ------------------------------------------------------------ search */

  /**
   * The query's words as tsqueries from strict to loose: all words, then all but one (for three
   * words or more), then any word. Lexemes come from PostgreSQL's own parser, so stemming and stop
   * words match the index.
   */
  async function relaxedQueries(text: string): Promise<string[]> {
    const { rows } = await pool.query<{ lexemes: string[] }>(
      "select tsvector_to_array(to_tsvector('english', $1)) as lexemes",
      [text],
    )
    const lexemes = (rows[0]?.lexemes ?? []).slice(0, 12).map(tsLexeme)
    if (!lexemes.length) return []
    const variants = [lexemes.join(' & ')]
    if (lexemes.length >= 3 && lexemes.length <= 8) {
      variants.push(
        lexemes
          .map((_, skip) => `(${lexemes.filter((__, i) => i !== skip).join(' & ')})`)
          .join(' | '),
      )
    }
    if (lexemes.length >= 2) variants.push(lexemes.join(' | '))
    return variants
  }

  /**
   * What names the state of an organisation's knowledge, in one read over three indexed counts:
   * every write to a file, Q&A item or data item moves its updated_at, and every delete its count
   * (a key for cached searches).
   */
  async function stamp(orgId: number) {
    const { rows } = await pool.query<{ files: string; qa: string; data: string }>(
      `select (select count(*) || '@' || coalesce(max(updated_at)::text, '') from repository_files where org_id = $1) as files,
              (select count(*) || '@' || coalesce(max(updated_at)::text, '') from kb_qa_items where org_id = $1) as qa,
              (select count(*) || '@' || coalesce(max(updated_at)::text, '') from kb_data_items where org_id = $1) as data`,
      [orgId],
    )
    return rows[0]
  }

  /**
   * Passages of ready files, Q&A items and data items, ranked together. Full text first with
   * every word required, then any word; trigram similarity on questions and titles catches typos.
   * Scores are normalised to 0..1 (rank / (rank + 1), or the similarity) and merged.
   */
  async function search(
    orgId: number,
    query: { q: string; source: 'all' | 'files' | 'qa' | 'data'; limit: number },
  ) {
    const results: SearchResult[] = []
    const want = (kind: 'files' | 'qa' | 'data') => query.source === 'all' || query.source === kind
    const limit = query.limit
    const tsQueries = await relaxedQueries(query.q)
    // trigram matching on questions and titles still runs when the text has no searchable words
    // (the empty tsquery, which matches nothing; the text "''" would be a tsquery syntax error)
    if (!tsQueries.length) tsQueries.push(EMPTY_TSQUERY)
    for (const tsqText of tsQueries) {
      results.length = 0
      const tasks: Promise<void>[] = []
      if (want('files'))
        tasks.push(
          (async () => {
            const { rows } = await pool.query<{
              id: string
              file_id: string
              text: string
              location: Record<string, unknown>
              name: string
              kind: SearchResult['source']['kind']
              rank: number
              snippet: string
            }>(
              `with q as (select $2::tsquery as query),
           candidates as (
             -- a very common query matches most passages: rank a bounded set (p95 budget)
             select p.id, p.file_id, p.text, p.location, p.tsv, q.query
               from file_passages p, q
              where p.org_id = $1 and p.tsv @@ q.query
                and exists (select 1 from repository_files f where f.id = p.file_id and f.status = 'ready')
              limit $4::int),
           hits as (
             select c.id, c.file_id, c.text, c.location, ts_rank_cd(c.tsv, c.query, 32) as rank, c.query
               from candidates c order by rank desc limit $3)
           select h.id, h.file_id, h.text, h.location, f.name, f.kind, h.rank,
                  ts_headline('english', ${escaped('h.text')}, h.query, ${HEADLINE}) as snippet
             from hits h join repository_files f on f.id = h.file_id order by h.rank desc`,
              [orgId, tsqText, limit, RANK_CANDIDATES],
            )
            for (const row of rows) {
              results.push({
                id: `passage:${row.id}`,
                kind: 'passage',
                text: row.text,
                snippet: row.snippet,
                score: row.rank / (row.rank + 0.1),
                file_id: Number(row.file_id),
                item_id: null,
                source: {
                  name: row.name,
                  kind: row.kind,
                  location: row.location as SearchResult['source']['location'],
                },
              })
            }
          })(),
        )
      if (want('qa'))
        tasks.push(
          (async () => {
            const { rows } = await pool.query<{
              id: string
              question: string
              answer: string
              rank: number
              snippet: string
            }>(
              `with q as (select $4::tsquery as query)
           select i.id, i.question, i.answer,
                  greatest(ts_rank_cd(i.tsv, q.query, 32) / (ts_rank_cd(i.tsv, q.query, 32) + 0.1), similarity(i.question, $2)) as rank,
                  ts_headline('english', ${escaped("i.question || ' — ' || i.answer")}, q.query, ${HEADLINE}) as snippet
             from kb_qa_items i, q
            where i.org_id = $1 and (i.tsv @@ q.query or i.question % $2)
            order by rank desc limit $3`,
              [orgId, query.q, limit, tsqText],
            )
            for (const row of rows) {
              results.push({
                id: `qa:${row.id}`,
                kind: 'qa',
                text: `${row.question}\n${row.answer}`,
                snippet: row.snippet,
                score: row.rank,
                file_id: null,
                item_id: Number(row.id),
                source: { name: row.question, kind: null, location: null },
              })
            }
          })(),
        )
      if (want('data'))
        tasks.push(
          (async () => {
            const { rows } = await pool.query<{
              id: string
              title: string
              value: string
              rank: number
              snippet: string
            }>(
              `with q as (select $4::tsquery as query)
           select i.id, i.title, i.value,
                  greatest(ts_rank_cd(i.tsv, q.query, 32) / (ts_rank_cd(i.tsv, q.query, 32) + 0.1), similarity(i.title, $2)) as rank,
                  ts_headline('english', ${escaped("i.title || ': ' || i.value")}, q.query, ${HEADLINE}) as snippet
             from kb_data_items i, q
            where i.org_id = $1 and (i.tsv @@ q.query or i.title % $2)
            order by rank desc limit $3`,
              [orgId, query.q, limit, tsqText],
            )
            for (const row of rows) {
              results.push({
                id: `data:${row.id}`,
                kind: 'data',
                text: `${row.title}: ${row.value}`,
                snippet: row.snippet,
                score: row.rank,
                file_id: null,
                item_id: Number(row.id),
                source: { name: row.title, kind: null, location: null },
              })
            }
          })(),
        )
      await Promise.all(tasks)
      if (results.length) break
    }
    results.sort((a, b) => b.score - a.score)
    return results
      .slice(0, limit)
      .map((r) => ({ ...r, score: Math.round(Math.min(1, Math.max(0, r.score)) * 1000) / 1000 }))
  }

  return {
    stamp,
    getQa,
    listQa,
    createQa,
    updateQa,
    deleteQa,
    getData,
    listData,
    createData,
    updateData,
    deleteData,
    importQa,
    search,
  }
}

export type KnowledgeService = ReturnType<typeof createKnowledgeService>
