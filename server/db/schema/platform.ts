import { sql } from 'drizzle-orm'
import { bigint, check, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { organizations, userRef } from './accounts.ts'
import { at, identity } from './columns.ts'

/**
 * API keys of an organisation (issue 41): named, scoped (read, write), with an optional expiry.
 * The key is shown once; only its SHA-256 is kept, with its first characters to tell keys apart.
 * A revoked key fails at once. A key acts for the organisation, attributed to its creator.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: identity(),
    orgId: bigint('org_id', { mode: 'number' })
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    scopes: text('scopes').array().notNull(),
    createdBy: userRef('created_by'),
    createdAt: at('created_at').notNull().defaultNow(),
    lastUsedAt: at('last_used_at'),
    expiresAt: at('expires_at'),
    revokedAt: at('revoked_at'),
    revokedBy: userRef('revoked_by'),
  },
  (table) => [
    uniqueIndex('api_keys_hash_idx').on(table.keyHash),
    index('api_keys_org_idx').on(table.orgId, table.createdAt),
    check('api_keys_scopes_check', sql`${table.scopes} <@ array['read', 'write']::text[]`),
  ],
)
