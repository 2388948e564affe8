import { sql } from 'drizzle-orm'
import { type AnyPgColumn, bigint, customType, index, text, timestamp } from 'drizzle-orm/pg-core'

/** Column and index builders the tables share. */

/** The generated identity key every table has. */
export const identity = () =>
  bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity()
/** The row this one belongs to: it goes with it. */
export const parentRef = (name: string, target: () => AnyPgColumn) =>
  bigint(name, { mode: 'number' }).notNull().references(target, { onDelete: 'cascade' })
/** Full-text vector of a title-like column (weight A) and a body-like column (weight B). */
export const weightedTsv = (title: string, body: string) =>
  tsvector('tsv').generatedAlwaysAs(
    sql.raw(
      `setweight(to_tsvector('english', ${title}), 'A') || setweight(to_tsvector('english', ${body}), 'B')`,
    ),
  )
/** Free tags, never null. */
export const tagList = () => text('tags').array().notNull().default(sql`'{}'::text[]`)
/** A moment, with its time zone. */
export const at = (name: string) => timestamp(name, { withTimezone: true })
/** When a row was written (or last changed), set by PostgreSQL. */
export const stamp = (name: 'created_at' | 'updated_at') => at(name).notNull().defaultNow()
/** The indexes of a searchable library table: full text, fuzzy title, tags. */
export const searchIndexes = (
  name: string,
  table: { tsv: AnyPgColumn; tags: AnyPgColumn },
  title: AnyPgColumn,
) => [
  index(`${name}_tsv_idx`).using('gin', table.tsv),
  index(`${name}_${title.name}_trgm_idx`).using('gin', sql`${title} gin_trgm_ops`),
  index(`${name}_tags_idx`).using('gin', table.tags),
]

export const timestamps = { createdAt: stamp('created_at'), updatedAt: stamp('updated_at') }
/** Full-text vectors, kept by PostgreSQL itself as generated columns. */
export const tsvector = customType<{ data: string; driverData: string }>({
  dataType: () => 'tsvector',
})
