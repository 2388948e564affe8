import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import type { TrustSection } from '../../../contract/trust.ts'
import { organizations, userRef } from './accounts.ts'
import { at, identity } from './columns.ts'

/**
 * The trust centre's page of an organisation (issue 40): one row, made on the first save. The
 * slug is its public address (/trust/{slug}), unique across organisations. The NDA's version is
 * bumped whenever its text changes, so that an acceptance names what was accepted.
 */
export const trustPages = pgTable(
  'trust_pages',
  {
    orgId: bigint('org_id', { mode: 'number' })
      .primaryKey()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    published: boolean('published').notNull().default(false),
    slug: text('slug'),
    sections: jsonb('sections').$type<TrustSection[]>().notNull().default([]),
    overview: text('overview').notNull().default(''),
    contactEmail: text('contact_email'),
    certifications: jsonb('certifications').$type<unknown[]>().notNull().default([]),
    subprocessors: jsonb('subprocessors').$type<unknown[]>().notNull().default([]),
    updates: jsonb('updates').$type<unknown[]>().notNull().default([]),
    ndaText: text('nda_text').notNull().default(''),
    ndaVersion: integer('nda_version').notNull().default(0),
    autoApproveDomains: text('auto_approve_domains').array().notNull().default(sql`'{}'`),
    grantDays: integer('grant_days').notNull().default(30),
    updatedAt: at('updated_at'),
    updatedBy: userRef('updated_by'),
  },
  (table) => [
    uniqueIndex('trust_pages_slug_idx').on(table.slug),
    check('trust_pages_grant_days_check', sql`${table.grantDays} between 1 and 365`),
  ],
)

/**
 * Requests for documents under NDA (issue 40): who asked and why, the NDA version they accepted
 * (with when, from where and with which browser), and the decision. An approval sets how long
 * access lasts and mails a one-time link (its hash here); following it gives a reader session
 * (its token's hash here) that ends with the grant or at once on revocation.
 */
export const trustRequests = pgTable(
  'trust_requests',
  {
    id: identity(),
    orgId: bigint('org_id', { mode: 'number' })
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    company: text('company').notNull(),
    reason: text('reason').notNull().default(''),
    ndaVersion: integer('nda_version').notNull(),
    ndaText: text('nda_text').notNull(),
    ndaAcceptedAt: at('nda_accepted_at').notNull().defaultNow(),
    address: text('address'),
    userAgent: text('user_agent'),
    status: text('status').notNull().default('pending'),
    decidedBy: userRef('decided_by'),
    decidedAt: at('decided_at'),
    /** When access was granted (by an admin or at once): kept when it is later revoked. */
    approvedAt: at('approved_at'),
    expiresAt: at('expires_at'),
    linkHash: text('link_hash'),
    linkUsedAt: at('link_used_at'),
    readerHash: text('reader_hash'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (table) => [
    index('trust_requests_org_idx').on(table.orgId, table.createdAt),
    uniqueIndex('trust_requests_link_idx').on(table.linkHash),
    uniqueIndex('trust_requests_reader_idx').on(table.readerHash),
    check(
      'trust_requests_status_check',
      sql`${table.status} in ('pending', 'approved', 'rejected', 'revoked')`,
    ),
  ],
)

/** Every download from the trust centre (issue 40): which document, by whom, from where. */
export const trustDownloads = pgTable(
  'trust_downloads',
  {
    id: identity(),
    orgId: bigint('org_id', { mode: 'number' })
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    fileId: bigint('file_id', { mode: 'number' }),
    requestId: bigint('request_id', { mode: 'number' }).references(() => trustRequests.id, {
      onDelete: 'set null',
    }),
    email: text('email'),
    address: text('address'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (table) => [index('trust_downloads_org_idx').on(table.orgId, table.createdAt)],
)

/**
 * Views of the public page per organisation and UTC day (issue 40): each node counts its views in
 * memory and adds them here every few seconds, so a crowd of visitors costs one write per node.
 */
export const trustPageViews = pgTable(
  'trust_page_views',
  {
    orgId: bigint('org_id', { mode: 'number' })
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    views: integer('views').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.orgId, table.day] })],
)
