import { sql } from 'drizzle-orm'
import { bigint, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { authored, orgRef } from './accounts.ts'
import { identity, timestamps } from './columns.ts'

/**
 * An organisation's products (issue 38): what its files, library answers and questionnaires speak
 * for. A row that names none speaks for the whole company (policies, HR, governance). Answering a
 * questionnaire for one product, another product's entry is only a lead.
 */
export const products = pgTable(
  'products',
  {
    id: identity(),
    orgId: orgRef(),
    name: text('name').notNull(),
    /** Other names the product goes by (former names, short names), for recognising it in text. */
    aliases: text('aliases').array().notNull().default(sql`'{}'::text[]`),
    description: text('description').notNull().default(''),
    ...authored(),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('products_org_name_idx').on(table.orgId, sql`lower(${table.name})`),
    index('products_org_idx').on(table.orgId),
  ],
)

/** The product a row speaks for; null: the whole company. A deleted product leaves it company-wide. */
export const productRef = () =>
  bigint('product_id', { mode: 'number' }).references(() => products.id, { onDelete: 'set null' })
