import type pg from 'pg'
import type * as z from 'zod/mini'
import {
  MAX_PRODUCTS,
  PRODUCT_TEXTS,
  type Product,
  type productAssignSchema,
  type productCreateSchema,
  type productUpdateSchema,
} from '../../../contract/products.ts'
import { writeAudit } from '../../db/audit.ts'
import { type Database, inTransaction } from '../../db/index.ts'
import { apiError, notFound } from '../../http/errors.ts'

/**
 * The organisation's products (issue 38): listed with what speaks for each, added, renamed,
 * deleted (what spoke for it becomes company-wide), and set on files, library answers and
 * questionnaires. Every statement carries the organisation; another organisation's product is
 * not found.
 */

interface ProductDb {
  id: string
  name: string
  aliases: string[]
  description: string
  files: string
  qa_items: string
  questionnaires: string
  created_at: Date
  updated_at: Date
}

const PRODUCT_SQL = `select p.id, p.name, p.aliases, p.description, p.created_at, p.updated_at,
    (select count(*) from repository_files f where f.org_id = p.org_id and f.product_id = p.id) as files,
    (select count(*) from kb_qa_items i where i.org_id = p.org_id and i.product_id = p.id) as qa_items,
    (select count(*) from questionnaires q where q.org_id = p.org_id and q.product_id = p.id) as questionnaires
  from products p`

const toProduct = (row: ProductDb): Product => ({
  id: Number(row.id),
  name: row.name,
  aliases: row.aliases,
  description: row.description,
  files: Number(row.files),
  qa_items: Number(row.qa_items),
  questionnaires: Number(row.questionnaires),
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
})

/** Two names for one product, ignoring case and spacing, are one. */
const sameName = (a: string, b: string) =>
  a.trim().toLowerCase().replace(/\s+/g, ' ') === b.trim().toLowerCase().replace(/\s+/g, ' ')

const uniqueAliases = (name: string, aliases: string[]) =>
  aliases.filter(
    (alias, index) =>
      !sameName(alias, name) && aliases.findIndex((other) => sameName(other, alias)) === index,
  )

const exists = () => apiError(409, PRODUCT_TEXTS.exists, { code: 'conflict' })
const isUniqueViolation = (error: unknown) => (error as { code?: string })?.code === '23505'

/** Throws 404 unless `productId` is one of the organisation's products (null: company-wide). */
export async function checkProduct(
  client: Pick<pg.Pool, 'query'>,
  orgId: number,
  productId: number | null | undefined,
) {
  if (productId === null || productId === undefined) return
  const { rows } = await client.query('select 1 from products where org_id = $1 and id = $2', [
    orgId,
    productId,
  ])
  if (!rows[0]) throw notFound(PRODUCT_TEXTS.notFound)
}

export function createProductService(deps: { database: Database }) {
  const { pool } = deps.database

  async function list(orgId: number) {
    const { rows } = await pool.query<ProductDb>(
      `${PRODUCT_SQL} where p.org_id = $1 order by lower(p.name), p.id`,
      [orgId],
    )
    return rows.map(toProduct)
  }

  async function get(orgId: number, id: number) {
    const { rows } = await pool.query<ProductDb>(
      `${PRODUCT_SQL} where p.org_id = $1 and p.id = $2`,
      [orgId, id],
    )
    if (!rows[0]) throw notFound(PRODUCT_TEXTS.notFound)
    return toProduct(rows[0])
  }

  async function create(orgId: number, userId: number, body: z.output<typeof productCreateSchema>) {
    const id = await inTransaction(pool, async (client) => {
      // one at a time per organisation, so the cap holds under concurrent calls
      await client.query('select 1 from organizations where id = $1 for update', [orgId])
      const { rows: count } = await client.query<{ n: number }>(
        'select count(*)::int as n from products where org_id = $1',
        [orgId],
      )
      if ((count[0]?.n ?? 0) >= MAX_PRODUCTS) throw apiError(400, PRODUCT_TEXTS.tooMany)
      const { rows } = await client
        .query<{ id: string }>(
          `insert into products (org_id, name, aliases, description, created_by, updated_by)
           values ($1, $2, $3, $4, $5, $5) returning id`,
          [orgId, body.name, uniqueAliases(body.name, body.aliases), body.description, userId],
        )
        .catch((error: unknown) => {
          throw isUniqueViolation(error) ? exists() : error
        })
      const created = Number(rows[0]?.id)
      await writeAudit(
        client,
        { orgId, actorId: userId },
        { action: 'product.created', target: `product:${created}`, name: body.name },
      )
      return created
    })
    return get(orgId, id)
  }

  async function update(
    orgId: number,
    userId: number,
    id: number,
    body: z.output<typeof productUpdateSchema>,
  ) {
    await inTransaction(pool, async (client) => {
      const { rows } = await client.query<{ name: string; aliases: string[] }>(
        'select name, aliases from products where org_id = $1 and id = $2 for update',
        [orgId, id],
      )
      const current = rows[0]
      if (!current) throw notFound(PRODUCT_TEXTS.notFound)
      const name = body.name ?? current.name
      await client
        .query(
          `update products set name = $3, aliases = $4, description = coalesce($5, description),
              updated_by = $6, updated_at = now()
            where org_id = $1 and id = $2`,
          [
            orgId,
            id,
            name,
            uniqueAliases(name, body.aliases ?? current.aliases),
            body.description ?? null,
            userId,
          ],
        )
        .catch((error: unknown) => {
          throw isUniqueViolation(error) ? exists() : error
        })
      await writeAudit(
        client,
        { orgId, actorId: userId },
        { action: 'product.updated', target: `product:${id}`, name },
      )
    })
    return get(orgId, id)
  }

  /** Deletes a product: what spoke for it speaks for the whole company from now on. */
  async function remove(orgId: number, userId: number, id: number) {
    await inTransaction(pool, async (client) => {
      const { rows } = await client.query<{ name: string }>(
        'delete from products where org_id = $1 and id = $2 returning name',
        [orgId, id],
      )
      if (!rows[0]) throw notFound(PRODUCT_TEXTS.notFound)
      await writeAudit(
        client,
        { orgId, actorId: userId },
        { action: 'product.deleted', target: `product:${id}`, name: rows[0].name },
      )
    })
    return { deleted: 1 }
  }

  /** Sets the product of files, library answers and questionnaires, all or none (404). */
  async function assign(orgId: number, userId: number, body: z.output<typeof productAssignSchema>) {
    return inTransaction(pool, async (client) => {
      await checkProduct(client, orgId, body.product_id)
      const set = async (table: string, ids: number[]) => {
        if (!ids.length) return 0
        const unique = [...new Set(ids)]
        const { rowCount } = await client.query(
          `update ${table} set product_id = $3, updated_at = now() where org_id = $1 and id = any($2::bigint[])`,
          [orgId, unique, body.product_id],
        )
        if (rowCount !== unique.length) throw notFound(PRODUCT_TEXTS.someNotFound)
        return unique.length
      }
      const result = {
        files: await set('repository_files', body.file_ids),
        qa_items: await set('kb_qa_items', body.qa_item_ids),
        questionnaires: await set('questionnaires', body.questionnaire_ids),
      }
      const { rows } = await client.query<{ name: string }>(
        'select name from products where org_id = $1 and id = $2',
        [orgId, body.product_id ?? 0],
      )
      await writeAudit(
        client,
        { orgId, actorId: userId },
        {
          action: 'product.assigned',
          target: body.product_id ? `product:${body.product_id}` : undefined,
          name: rows[0]?.name ?? PRODUCT_TEXTS.companyWide,
          detail: { count: result.files + result.qa_items + result.questionnaires },
        },
      )
      return result
    })
  }

  return { list, get, create, update, remove, assign }
}

export type ProductService = ReturnType<typeof createProductService>

/** Words of a name or a text, lower case, for finding a product's name in it ('Canvas_Studio' → 'canvas studio'). */
const wordsOf = (text: string) =>
  ` ${text
    .toLowerCase()
    .replace(/\.[a-z0-9]{2,4}$/, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()} `

/**
 * Guesses the product a new file or questionnaire speaks for (issue 38) when nobody said: the
 * one product whose name or alias appears, as whole words, in the first of `texts` that names
 * any (a completed questionnaire's own product field first, then its file name). Two products
 * named, or none: left for a person (company-wide). Never overrides a product already set.
 */
export async function guessProduct(
  client: Pick<pg.Pool, 'query'>,
  orgId: number,
  target: { table: 'repository_files' | 'questionnaires'; id: number },
  texts: (string | null | undefined)[],
) {
  const { rows: products } = await client.query<{ id: string; name: string; aliases: string[] }>(
    'select id, name, aliases from products where org_id = $1',
    [orgId],
  )
  if (!products.length) return null
  for (const text of texts) {
    if (!text?.trim()) continue
    const words = wordsOf(text)
    const named = products.filter((product) =>
      [product.name, ...product.aliases].some((name) => {
        const phrase = wordsOf(name).trim()
        return phrase.length > 1 && words.includes(` ${phrase} `)
      }),
    )
    if (named.length === 0) continue
    if (named.length > 1) return null
    const id = Number(named[0]?.id)
    await client.query(
      `update ${target.table} set product_id = $3 where org_id = $1 and id = $2 and product_id is null`,
      [orgId, target.id, id],
    )
    return id
  }
  return null
}
