import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import type { Role, UserStatus } from '../../../contract/auth.ts'
import type { DeliveryChannel, NotificationKind } from '../../../contract/collaboration.ts'
import { at, identity, parentRef, stamp, timestamps } from './columns.ts'

/** Organisations, people, sign-in, links, licenses, limits, audit, model usage. */

/** The owning organisation: its rows go with it. */
export const orgRef = () => parentRef('org_id', () => organizations.id)
/** A user who did something: kept as null when the user is removed. */
export const userRef = (name: string) =>
  bigint(name, { mode: 'number' }).references(() => users.id, { onDelete: 'set null' })
/** Who created a row and who changed it last. */
export const authored = () => ({
  createdBy: userRef('created_by'),
  updatedBy: userRef('updated_by'),
})

export const organizations = pgTable('organizations', {
  id: identity(),
  name: text('name').notNull(),
  /** Answer-style defaults (contract/organization.ts). */
  answerTone: text('answer_tone').notNull().default('neutral'),
  answerLength: text('answer_length').notNull().default('standard'),
  /** How many days a library answer stays fresh after its last review, unless the answer says. */
  reviewCycleDays: integer('review_cycle_days').notNull().default(365),
  /** Whether owners of library answers get the weekly email of what falls due. */
  reviewDigest: boolean('review_digest').notNull().default(true),
  /** Issue 39: whether filling the customer's file writes approved answers only, by default. */
  exportApprovedOnly: boolean('export_approved_only').notNull().default(false),
  ...timestamps,
})

/**
 * Email domains an organisation verified: an admin with a confirmed address at the domain added
 * it (a mailbox proof), or a DNS TXT record proved control of it (`dns_verified_at`). One
 * organisation per domain (the primary key), so that a join request has one home; single sign-on
 * discovery and just-in-time creation need the DNS proof.
 */
export const organizationDomains = pgTable(
  'organization_domains',
  {
    domain: text('domain').primaryKey(),
    orgId: bigint('org_id', { mode: 'number' })
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    addedBy: bigint('added_by', { mode: 'number' }),
    createdAt: stamp('created_at'),
    dnsVerifiedAt: at('dns_verified_at'),
  },
  (table) => [index('organization_domains_org_idx').on(table.orgId)],
)

/** The organisation's logo: a small PNG, JPEG or WebP image (never SVG: it can carry script). */
export const organizationLogos = pgTable('organization_logos', {
  orgId: bigint('org_id', { mode: 'number' })
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  mime: text('mime').notNull(),
  data: customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' })(
    'data',
  ).notNull(),
  updatedAt: stamp('updated_at'),
})

export type UserRole = Role

export const users = pgTable(
  'users',
  {
    id: identity(),
    orgId: orgRef(),
    /** Stored trimmed and lower-cased; the unique index on lower(email) guards older rows too. */
    email: text('email').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    /** argon2id PHC string; null until an invited user sets a first password. */
    passwordHash: text('password_hash'),
    role: text('role').$type<UserRole>().notNull().default('contributor'),
    /** `invited`: an invite link and no password yet; `removed` keeps the row for the audit trail. */
    status: text('status').$type<UserStatus>().notNull().default('active'),
    emailConfirmedAt: at('email_confirmed_at'),
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    /** Set with an administrator's temporary password: it dies at first use or at this time (AS7). */
    tempPasswordExpiresAt: at('temp_password_expires_at'),
    marketingConsent: boolean('marketing_consent').notNull().default(false),
    /** How each kind of notification reaches the person (issue 29); a kind not set: both. */
    notificationPreferences: jsonb('notification_preferences')
      .$type<Partial<Record<NotificationKind, DeliveryChannel>>>()
      .notNull()
      .default({}),
    ...timestamps,
    lastLoginAt: at('last_login_at'),
  },
  (table) => [
    uniqueIndex('users_email_lower_idx').on(sql`lower(${table.email})`),
    index('users_org_idx').on(table.orgId),
    check('users_role_check', sql`${table.role} in ('admin', 'approver', 'contributor', 'viewer')`),
    check(
      'users_status_check',
      sql`${table.status} in ('active', 'invited', 'pending', 'disabled', 'removed')`,
    ),
  ],
)

/**
 * A sign-in session: one refresh-token family. Access tokens carry its id (`sid`), so revoking the
 * row ends the session's access tokens at once (AS6). `expires_at` is absolute: creation + 14 days,
 * never extended by refreshes (AS5).
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    userId: parentRef('user_id', () => users.id),
    orgId: orgRef(),
    /** The session whose access token asked for this one (token/get); it never outlives it. */
    parentId: uuid('parent_id'),
    createdAt: stamp('created_at'),
    expiresAt: at('expires_at').notNull(),
    revokedAt: at('revoked_at'),
    /** logout, reuse, password_reset, password_change, disabled, ... */
    revokedReason: text('revoked_reason'),
  },
  (table) => [index('sessions_user_idx').on(table.userId)],
)

/** Opaque refresh tokens, stored only as SHA-256 hashes (LT3) and rotated on every use. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: identity(),
    familyId: uuid('family_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    userId: parentRef('user_id', () => users.id),
    tokenHash: text('token_hash').notNull(),
    createdAt: stamp('created_at'),
    /** The family's absolute end, copied so a lone row tells its own lifetime. */
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
    replacedBy: bigint('replaced_by', { mode: 'number' }),
    revokedAt: at('revoked_at'),
  },
  (table) => [
    uniqueIndex('refresh_tokens_hash_idx').on(table.tokenHash),
    index('refresh_tokens_family_idx').on(table.familyId),
  ],
)

export const LINK_PURPOSES = ['confirm_email', 'password_reset', 'invite', 'magic_link'] as const
export type LinkPurpose = (typeof LINK_PURPOSES)[number]

/** One-time links mailed to users, stored only as SHA-256 hashes (LT3). */
export const linkTokens = pgTable(
  'link_tokens',
  {
    id: identity(),
    userId: parentRef('user_id', () => users.id),
    orgId: orgRef(),
    purpose: text('purpose').$type<LinkPurpose>().notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
    revokedAt: at('revoked_at'),
    /** Wrong tokens tried for this user and purpose while this link was live (LT5). */
    attempts: integer('attempts').notNull().default(0),
    createdAt: stamp('created_at'),
  },
  (table) => [
    uniqueIndex('link_tokens_hash_idx').on(table.tokenHash),
    index('link_tokens_user_purpose_idx').on(table.userId, table.purpose),
    check(
      'link_tokens_purpose_check',
      sql`${table.purpose} in ('confirm_email', 'password_reset', 'invite', 'magic_link')`,
    ),
  ],
)

/** The organisation's license: a tier name and its limits (spec section 3), read only from here. */
export const licenses = pgTable('licenses', {
  orgId: bigint('org_id', { mode: 'number' })
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  /** The configured tier (config/license-tiers.json) whose limits these are. */
  tierKey: text('tier_key').notNull().default('free'),
  tierName: text('tier_name').notNull(),
  maxUsers: integer('max_users').notNull(),
  maxRepository: integer('max_repository').notNull(),
  maxQuestionnaire: integer('max_questionnaire').notNull(),
  maxAnswers: integer('max_answers').notNull(),
  isEvaluation: boolean('is_evaluation').notNull().default(false),
  multiLanguage: boolean('multi_language').notNull().default(false),
  isActive: boolean('is_active').notNull().default(true),
  expirationDate: at('expiration_date'),
  createdAt: stamp('created_at'),
})

/**
 * Rate-limit counters in PostgreSQL so that limits hold across API nodes: one row per key and
 * time bucket; a window is the sum of its buckets.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').notNull(),
    windowStart: at('window_start').notNull(),
    count: integer('count').notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.key, table.windowStart] }),
    index('rate_limits_window_idx').on(table.windowStart),
  ],
)

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
    createdAt: stamp('created_at'),
  },
  (table) => [index('audit_events_org_created_idx').on(table.orgId, table.createdAt)],
)

/** Language-model tokens an organisation spent per UTC day (LL5). */
export const llmUsage = pgTable(
  'llm_usage',
  {
    orgId: orgRef(),
    day: date('day').notNull(),
    tokens: bigint('tokens', { mode: 'number' }).notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.orgId, table.day] })],
)
