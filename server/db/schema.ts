import { sql } from 'drizzle-orm'
import { bigint, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'

/**
 * The drizzle schema. Every tenant-owned table carries `org_id`; services take it from the
 * authenticated context, never from the request. Migrations are generated from this file with
 * `npm run db:generate`, committed, and applied at start.
 */

export const organizations = pgTable('organizations', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

/**
 * Append-only audit trail (TI7): admin actions and authorization denials with tenant, actor and
 * target, never secrets.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    orgId: bigint('org_id', { mode: 'number' }).references(() => organizations.id, {
      onDelete: 'cascade',
    }),
    actorId: bigint('actor_id', { mode: 'number' }),
    action: text('action').notNull(),
    target: text('target'),
    requestId: text('request_id'),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('audit_events_org_created_idx').on(table.orgId, table.createdAt)],
)
