import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
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

/**
 * Outgoing webhooks (issue 41): an endpoint of the organisation, the events it takes, its kind
 * (Standard Webhooks, Slack, Teams) and its signing secret, kept sealed. It is disabled after a
 * day of failures (`failing_since`).
 */
export const webhooks = pgTable(
  'webhooks',
  {
    id: identity(),
    orgId: bigint('org_id', { mode: 'number' })
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    events: text('events').array().notNull(),
    kind: text('kind').notNull().default('standard'),
    description: text('description').notNull().default(''),
    secretSealed: text('secret_sealed').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    disabledReason: text('disabled_reason'),
    failingSince: at('failing_since'),
    createdBy: userRef('created_by'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (table) => [
    index('webhooks_org_idx').on(table.orgId),
    check('webhooks_kind_check', sql`${table.kind} in ('standard', 'slack', 'teams')`),
  ],
)

/**
 * One event for one endpoint, delivered with retries: the payload is fixed when the event
 * happens, its message id is the same on every attempt, and each attempt is kept.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: identity(),
    webhookId: bigint('webhook_id', { mode: 'number' })
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    orgId: bigint('org_id', { mode: 'number' }).notNull(),
    messageId: text('message_id').notNull(),
    event: text('event').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: at('next_attempt_at'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (table) => [
    index('webhook_deliveries_due_idx')
      .on(table.nextAttemptAt)
      .where(sql`${table.status} = 'pending'`),
    index('webhook_deliveries_hook_idx').on(table.webhookId, table.createdAt),
    check(
      'webhook_deliveries_status_check',
      sql`${table.status} in ('pending', 'delivered', 'failed')`,
    ),
  ],
)

/** Every attempt of a delivery: the endpoint's status (or why none) and how long it took. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: identity(),
    deliveryId: bigint('delivery_id', { mode: 'number' })
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    statusCode: integer('status_code'),
    latencyMs: integer('latency_ms'),
    error: text('error'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (table) => [index('webhook_attempts_delivery_idx').on(table.deliveryId)],
)
