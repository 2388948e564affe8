import { sql } from 'drizzle-orm'
import { check, customType, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core'
import type { TicketPriority, TicketType } from '../../../contract/support.ts'
import { orgRef, users } from './accounts.ts'
import { identity, parentRef, stamp } from './columns.ts'

/** Support tickets and their attachments. */

/** Raw bytes; node-postgres reads and writes bytea as a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' })

/** Support tickets (spec sections 3 and 7), owned by the sender's organisation. */
export const supportTickets = pgTable(
  'support_tickets',
  {
    id: identity(),
    orgId: orgRef(),
    userId: parentRef('user_id', () => users.id),
    type: text('type').$type<TicketType>().notNull(),
    summary: text('summary').notNull(),
    description: text('description').notNull(),
    steps: text('steps').notNull().default(''),
    priority: text('priority').$type<TicketPriority>().notNull().default('Medium'),
    browserInfo: text('browser_info').notNull().default(''),
    url: text('url').notNull().default(''),
    customFields: jsonb('custom_fields')
      .$type<{ id: string; value: string }[]>()
      .notNull()
      .default([]),
    createdAt: stamp('created_at'),
  },
  (table) => [
    index('support_tickets_org_created_idx').on(table.orgId, table.createdAt),
    check(
      'support_tickets_type_check',
      sql`${table.type} in ('Bug', 'Feature Request', 'Feedback', 'Question', 'Idea / Random')`,
    ),
    check('support_tickets_priority_check', sql`${table.priority} in ('Low', 'Medium', 'High')`),
  ],
)

/**
 * A ticket's attached files, kept in the database. The content type comes from the bytes' magic,
 * never from the client; SVG is stored as a download only and must never be served inline.
 */
export const supportTicketAttachments = pgTable(
  'support_ticket_attachments',
  {
    id: identity(),
    ticketId: parentRef('ticket_id', () => supportTickets.id),
    orgId: orgRef(),
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    data: bytea('data').notNull(),
    createdAt: stamp('created_at'),
  },
  (table) => [
    index('support_ticket_attachments_ticket_idx').on(table.ticketId),
    index('support_ticket_attachments_org_idx').on(table.orgId),
  ],
)
