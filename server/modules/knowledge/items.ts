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

/**
 * Q&A items and data items: list with search, filters and paging, create, update, delete.
 */
export function createItems(deps: KnowledgeDeps) {
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
    const { count, rows } = await fetchPage<QaRow>(
      pool,
      {
        select: `select q.*, ${USER_COLS} from kb_qa_items q left join users u on u.id = q.created_by`,
        counted: 'kb_qa_items q',
        where,
        order: 'q.updated_at desc, q.id desc',
      },
      values,
      query,
    )
    return { count, results: rows.map(toQa) }
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
    const { count, rows } = await fetchPage<DataRow>(
      pool,
      {
        select: `select d.*, ${USER_COLS} from kb_data_items d left join users u on u.id = d.created_by`,
        counted: 'kb_data_items d',
        where,
        order: 'd.updated_at desc, d.id desc',
      },
      values,
      query,
    )
    return { count, results: rows.map(toData) }
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

  return {
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
  }
}

export type Items = ReturnType<typeof createItems>
