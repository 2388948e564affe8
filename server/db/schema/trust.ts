import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  check,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import type { TrustSection } from '../../../contract/trust.ts'
import { organizations, userRef } from './accounts.ts'
import { at } from './columns.ts'

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
