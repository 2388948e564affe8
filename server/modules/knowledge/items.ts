import { KNOWLEDGE_TEXTS } from '../../../contract/knowledge.ts'
import { fetchPage } from '../../db/paging.ts'
import { notFound } from '../../http/errors.ts'
import { cleanTags } from '../repository/service.ts'
import {
  type DataRow,
  escapeLike,
  type KnowledgeDeps,
  type QaRow,
  questionKey,
  toData,
  toQa,
  USER_COLS,
} from './shared.ts'

type ItemListQuery = { page: number; page_size: number; q?: string; tag?: string }

/**
 * Q&A items and data items: list with search, filters and paging, create, update, delete.
 */
export function createItems(deps: KnowledgeDeps) {
  const { pool } = deps.database

  /** Reading, listing and deleting work alike on both tables. */
  function itemTable<Row extends object, Item>(
    table: 'kb_qa_items' | 'kb_data_items',
    textColumns: string[],
    toItem: (row: Row) => Item,
  ) {
    const select = `select i.*, ${USER_COLS} from ${table} i left join users u on u.id = i.created_by`

    async function get(orgId: number, id: number) {
      const { rows } = await pool.query<Row>(`${select} where i.org_id = $1 and i.id = $2`, [
        orgId,
        id,
      ])
      if (!rows[0]) throw notFound(KNOWLEDGE_TEXTS.itemNotFound)
      return toItem(rows[0])
    }

    /** Newest first; `q` matches full text or any text column, `tag` any tag (case-insensitive). */
    async function list(orgId: number, query: ItemListQuery) {
      const where = ['i.org_id = $1']
      const values: unknown[] = [orgId]
      const text = query.q?.trim()
      if (text) {
        values.push(text, `%${escapeLike(text)}%`)
        const like = textColumns.map((column) => `i.${column} ilike $${values.length}`)
        where.push(
          `(i.tsv @@ websearch_to_tsquery('english', $${values.length - 1}) or ${like.join(' or ')})`,
        )
      }
      if (query.tag) {
        values.push(query.tag.toLowerCase())
        where.push(`exists (select 1 from unnest(i.tags) t where lower(t) = $${values.length})`)
      }
      const { count, rows } = await fetchPage<Row>(
        pool,
        {
          select,
          counted: `${table} i`,
          where: where.join(' and '),
          order: 'i.updated_at desc, i.id desc',
        },
        values,
        query,
      )
      return { count, results: rows.map(toItem) }
    }

    async function remove(orgId: number, id: number) {
      const { rowCount } = await pool.query(`delete from ${table} where org_id = $1 and id = $2`, [
        orgId,
        id,
      ])
      if (!rowCount) throw notFound(KNOWLEDGE_TEXTS.itemNotFound)
    }

    return { get, list, remove }
  }

  /* ------------------------------------------------------------ Q&A items */

  const qa = itemTable<QaRow, ReturnType<typeof toQa>>('kb_qa_items', ['question', 'answer'], toQa)
  const getQa = qa.get

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

  /* ------------------------------------------------------------ data items */

  const data = itemTable<DataRow, ReturnType<typeof toData>>(
    'kb_data_items',
    ['title', 'value'],
    toData,
  )
  const getData = data.get

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

  return {
    getQa,
    listQa: qa.list,
    createQa,
    updateQa,
    deleteQa: qa.remove,
    getData,
    listData: data.list,
    createData,
    updateData,
    deleteData: data.remove,
  }
}

export type Items = ReturnType<typeof createItems>
