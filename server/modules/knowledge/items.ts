import { DUE_WINDOW_DAYS, FRESHNESS_TEXTS, type Freshness } from '../../../contract/freshness.ts'
import { KNOWLEDGE_TEXTS } from '../../../contract/knowledge.ts'
import { can, type Role } from '../../../contract/roles.ts'
import { writeAudit } from '../../db/audit.ts'
import { inTransaction } from '../../db/index.ts'
import { fetchPage } from '../../db/paging.ts'
import { apiError, notFound } from '../../http/errors.ts'
import { checkProduct } from '../products/service.ts'
import { cleanTags } from '../repository/service.ts'
import {
  type DataRow,
  escapeLike,
  type KnowledgeDeps,
  QA_COLS,
  QA_DUE_SQL,
  QA_FROM,
  type QaRow,
  questionKey,
  toData,
  toQa,
  USER_COLS,
} from './shared.ts'

type ItemListQuery = {
  page: number
  page_size: number
  q?: string
  tag?: string
  freshness?: Freshness
  owner?: 'me' | 'none' | number
  order?: 'updated' | 'review'
  id?: number
  /** Q&A items: a product's id, or 'none' for those of all products (issue 38). */
  product?: 'none' | number
}

/** Who is asking, for filters such as 'mine'. */
type Caller = { userId: number; role: Role }

/** Each freshness state as a condition on QA_FROM's aliases. */
export const FRESHNESS_SQL: Record<Freshness, string> = {
  stale: `${QA_DUE_SQL} <= now()`,
  due: `${QA_DUE_SQL} > now() and ${QA_DUE_SQL} - interval '${DUE_WINDOW_DAYS} days' <= now()`,
  fresh: `${QA_DUE_SQL} - interval '${DUE_WINDOW_DAYS} days' > now()`,
}

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
    joined = {
      from: `${table} i left join users u on u.id = i.created_by`,
      cols: `i.*, ${USER_COLS}`,
    },
  ) {
    const select = `select ${joined.cols} from ${joined.from}`

    async function get(orgId: number, id: number) {
      const { rows } = await pool.query<Row>(`${select} where i.org_id = $1 and i.id = $2`, [
        orgId,
        id,
      ])
      if (!rows[0]) throw notFound(KNOWLEDGE_TEXTS.itemNotFound)
      return toItem(rows[0])
    }

    /** Newest first; `q` matches full text or any text column, `tag` any tag (case-insensitive). */
    async function list(orgId: number, query: ItemListQuery, caller?: Caller) {
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
      // one item by its id: a link that opens it (a chat's citation)
      if (query.id) {
        values.push(query.id)
        where.push(`i.id = $${values.length}`)
      }
      if (query.tag) {
        values.push(query.tag.toLowerCase())
        where.push(`exists (select 1 from unnest(i.tags) t where lower(t) = $${values.length})`)
      }
      const qa = table === 'kb_qa_items'
      if (qa && query.freshness) where.push(FRESHNESS_SQL[query.freshness])
      if (qa && query.owner !== undefined) {
        if (query.owner === 'none') where.push('i.owner_id is null')
        else {
          values.push(query.owner === 'me' ? (caller?.userId ?? 0) : query.owner)
          where.push(`i.owner_id = $${values.length}`)
        }
      }
      if (qa && query.product === 'none') where.push('i.product_id is null')
      else if (qa && query.product !== undefined) {
        values.push(query.product)
        where.push(`i.product_id = $${values.length}`)
      }
      const { count, rows } = await fetchPage<Row>(
        pool,
        {
          select,
          counted: qa ? 'kb_qa_items i join organizations o on o.id = i.org_id' : `${table} i`,
          where: where.join(' and '),
          order:
            qa && query.order === 'review'
              ? `${QA_DUE_SQL} asc, i.id asc`
              : 'i.updated_at desc, i.id desc',
        },
        values,
        query,
      )
      return { count, results: rows.map(toItem) }
    }

    /** Deletes the item, audited by its question or title (`actorId`: who deletes it). */
    async function remove(orgId: number, id: number, actorId?: number) {
      const kind = table === 'kb_qa_items' ? 'qa' : 'data'
      await inTransaction(pool, async (client) => {
        const { rows } = await client.query<{ name: string }>(
          `delete from ${table} where org_id = $1 and id = $2
           returning ${kind === 'qa' ? 'question' : 'title'} as name`,
          [orgId, id],
        )
        if (!rows[0]) throw notFound(KNOWLEDGE_TEXTS.itemNotFound)
        await writeAudit(
          client,
          { orgId, actorId: actorId ?? null },
          { action: `${kind}.deleted`, target: `${kind}:${id}`, name: rows[0].name },
        )
      })
    }

    return { get, list, remove }
  }

  /* ------------------------------------------------------------ Q&A items */

  const qa = itemTable<QaRow, ReturnType<typeof toQa>>(
    'kb_qa_items',
    ['question', 'answer'],
    toQa,
    { from: QA_FROM, cols: QA_COLS },
  )
  const getQa = qa.get

  /** An owner is an active person of the organisation who can work on its knowledge. */
  async function checkOwner(orgId: number, ownerId: number | null | undefined) {
    if (ownerId === undefined || ownerId === null) return
    const { rows } = await pool.query<{ role: Role }>(
      `select role from users where id = $1 and org_id = $2 and status = 'active'`,
      [ownerId, orgId],
    )
    const role = rows[0]?.role
    if (!role || !can(role, 'repository.write'))
      throw apiError(400, FRESHNESS_TEXTS.ownerNotMember, { code: 'validation_error' })
  }

  type Review = {
    owner_id?: number | null
    last_reviewed_at?: Date
    review_cycle_days?: number | null
    /** The product it speaks for (issue 38); null: the whole company. */
    product_id?: number | null
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
    } & Review,
  ) {
    await checkOwner(orgId, input.owner_id)
    await checkProduct(pool, orgId, input.product_id)
    const id = await inTransaction(pool, async (client) => {
      const { rows } = await client.query<{ id: string }>(
        `insert into kb_qa_items (org_id, question, answer, dropdown_value, tags, source, question_key, created_by, updated_by,
         owner_id, last_reviewed_at, reviewed_by, review_cycle_days, product_id)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9, coalesce($10, now()), $8, $11, $12) returning id`,
        [
          orgId,
          input.question,
          input.answer,
          input.dropdown_value || null,
          cleanTags(input.tags),
          input.source || null,
          questionKey(input.question),
          userId,
          input.owner_id ?? null,
          input.last_reviewed_at ?? null,
          input.review_cycle_days ?? null,
          input.product_id ?? null,
        ],
      )
      const id = Number(rows[0]?.id)
      await audited(client, orgId, userId, 'qa.created', id, input.question)
      return id
    })
    return getQa(orgId, id)
  }

  const audited = (
    client: Parameters<Parameters<typeof inTransaction>[1]>[0],
    orgId: number,
    actorId: number,
    action: string,
    id: number,
    name: string,
  ) =>
    writeAudit(
      client,
      { orgId, actorId },
      { action, target: `${action.split('.')[0]}:${id}`, name },
    )

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
    }> &
      Review,
  ) {
    const current = await getQa(orgId, id)
    await checkOwner(orgId, input.owner_id)
    await checkProduct(pool, orgId, input.product_id)
    const next = {
      question: input.question ?? current.question,
      answer: input.answer ?? current.answer,
      dropdown_value:
        input.dropdown_value === undefined ? current.dropdown_value : input.dropdown_value || null,
      tags: input.tags === undefined ? current.tags : cleanTags(input.tags),
      source: input.source === undefined ? current.source : input.source || null,
    }
    // rewriting what the answer says is a review of it; tags, owner or cycle alone are not
    const rewritten =
      next.question !== current.question ||
      next.answer !== current.answer ||
      next.dropdown_value !== current.dropdown_value
    const reviewedAt = input.last_reviewed_at ?? (rewritten ? new Date() : null)
    await inTransaction(pool, async (client) => {
      await client.query(
        `update kb_qa_items set question = $3, answer = $4, dropdown_value = $5, tags = $6, source = $7, question_key = $8,
         updated_by = $9, updated_at = now(),
         owner_id = case when $10 then $11::bigint else owner_id end,
         last_reviewed_at = coalesce($12, last_reviewed_at),
         reviewed_by = case when $12::timestamptz is null then reviewed_by else $9 end,
         review_cycle_days = case when $13 then $14::integer else review_cycle_days end,
         product_id = case when $15 then $16::bigint else product_id end
       where org_id = $1 and id = $2`,
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
          input.owner_id !== undefined,
          input.owner_id ?? null,
          reviewedAt,
          input.review_cycle_days !== undefined,
          input.review_cycle_days ?? null,
          input.product_id !== undefined,
          input.product_id ?? null,
        ],
      )
      await audited(client, orgId, userId, 'qa.updated', id, next.question)
    })
    return getQa(orgId, id)
  }

  /** Confirms an answer is still true today: its owner, or someone who manages the library. */
  async function reviewedQa(orgId: number, caller: Caller, id: number) {
    const current = await getQa(orgId, id)
    if (current.owner_id !== caller.userId && !can(caller.role, 'library.manage'))
      throw apiError(403, KNOWLEDGE_TEXTS.reviewNotAllowed, { code: 'forbidden' })
    await inTransaction(pool, async (client) => {
      await client.query(
        `update kb_qa_items set last_reviewed_at = now(), reviewed_by = $3 where org_id = $1 and id = $2`,
        [orgId, id, caller.userId],
      )
      await audited(client, orgId, caller.userId, 'qa.reviewed', id, current.question)
    })
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
    const id = await inTransaction(pool, async (client) => {
      const { rows } = await client.query<{ id: string }>(
        `insert into kb_data_items (org_id, title, value, tags, source, created_by, updated_by)
         values ($1, $2, $3, $4, $5, $6, $6) returning id`,
        [orgId, input.title, input.value, cleanTags(input.tags), input.source || null, userId],
      )
      const id = Number(rows[0]?.id)
      await audited(client, orgId, userId, 'data.created', id, input.title)
      return id
    })
    return getData(orgId, id)
  }

  async function updateData(
    orgId: number,
    userId: number,
    id: number,
    input: Partial<{ title: string; value: string; tags: string[]; source: string | null }>,
  ) {
    const current = await getData(orgId, id)
    await inTransaction(pool, async (client) => {
      await client.query(
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
      await audited(client, orgId, userId, 'data.updated', id, input.title ?? current.title)
    })
    return getData(orgId, id)
  }

  return {
    getQa,
    listQa: qa.list,
    createQa,
    updateQa,
    reviewedQa,
    deleteQa: qa.remove,
    getData,
    listData: data.list,
    createData,
    updateData,
    deleteData: data.remove,
  }
}

export type Items = ReturnType<typeof createItems>
