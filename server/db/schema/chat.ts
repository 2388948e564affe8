import { sql } from 'drizzle-orm'
import { bigint, boolean, check, index, jsonb, pgTable, text } from 'drizzle-orm/pg-core'
import { orgRef } from './accounts.ts'
import { identity, stamp, timestamps } from './columns.ts'

/** The chat assistant: each person's conversations and their messages (with citations). */

export const chatSessions = pgTable(
  'chat_sessions',
  {
    id: identity(),
    orgId: orgRef(),
    /** Conversations are their author's own. */
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    title: text('title').notNull(),
    /** False until named: the first question names an unnamed conversation. */
    named: boolean('named').notNull().default(false),
    ...timestamps,
  },
  (table) => [index('chat_sessions_owner_idx').on(table.orgId, table.userId, table.updatedAt)],
)

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: identity(),
    orgId: orgRef(),
    sessionId: bigint('session_id', { mode: 'number' })
      .notNull()
      .references(() => chatSessions.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    content: text('content').notNull(),
    citations: jsonb('citations').notNull().default(sql`'[]'::jsonb`),
    status: text('status').notNull().default('complete'),
    createdAt: stamp('created_at'),
  },
  (table) => [
    index('chat_messages_session_idx').on(table.sessionId, table.id),
    index('chat_messages_org_month_idx').on(table.orgId, table.role, table.createdAt),
    check('chat_messages_role_check', sql`${table.role} in ('user', 'assistant')`),
    check('chat_messages_status_check', sql`${table.status} in ('complete', 'stopped', 'failed')`),
  ],
)

/**
 * One row per question asked, kept when its conversation is deleted: the monthly quota counts
 * these, so deleting conversations never gives questions back.
 */
export const chatUsage = pgTable(
  'chat_usage',
  {
    id: identity(),
    orgId: orgRef(),
    userId: bigint('user_id', { mode: 'number' }),
    createdAt: stamp('created_at'),
  },
  (table) => [index('chat_usage_org_month_idx').on(table.orgId, table.createdAt)],
)
