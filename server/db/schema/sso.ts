import { sql } from 'drizzle-orm'
import { bigint, boolean, check, index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'
import { organizations, users } from './accounts.ts'
import { at, stamp } from './columns.ts'

/** Single sign-on: each organisation's identity provider, linked identities, flows and codes. */

export const ssoSettings = pgTable(
  'sso_settings',
  {
    orgId: bigint('org_id', { mode: 'number' })
      .primaryKey()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    enabled: boolean('enabled').notNull().default(false),
    provider: text('provider').notNull(),
    /** OIDC: the issuer whose discovery document is read. */
    issuer: text('issuer'),
    clientId: text('client_id'),
    /** AES-256-GCM under a key derived from the server secret; never echoed. */
    clientSecret: text('client_secret'),
    /** SAML: the IdP's metadata, by address or as XML. */
    metadataUrl: text('metadata_url'),
    metadataXml: text('metadata_xml'),
    /** When metadata given by address was last read (it is read again on a schedule). */
    metadataFetchedAt: at('metadata_fetched_at'),
    /** Email domains whose people sign in here (each a verified domain of the organisation). */
    domains: text('domains').array().notNull().default(sql`'{}'::text[]`),
    /** Password login, reset and magic links refused for the organisation's people (AS12). */
    enforceSso: boolean('enforce_sso').notNull().default(false),
    /** Create people of the verified domains at their first sign-in. */
    jitProvisioning: boolean('jit_provisioning').notNull().default(false),
    updatedAt: stamp('updated_at'),
  },
  (table) => [
    check(
      'sso_settings_provider_check',
      sql`${table.provider} in ('google', 'microsoft', 'microsoft_oidc', 'microsoft_saml')`,
    ),
  ],
)

/**
 * An account at an identity provider, keyed on the provider configuration that vouched for it
 * (the organisation, its provider, the provider's issuer) and the subject there, never on email
 * (AS9). Google sign-in without an organisation's flow is the provider 'google' of the person's
 * organisation, found only through Google's own issuer (flows.ts).
 */
export const userIdentities = pgTable(
  'user_identities',
  {
    orgId: bigint('org_id', { mode: 'number' })
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email'),
    createdAt: stamp('created_at'),
    lastUsedAt: at('last_used_at'),
  },
  (table) => [
    primaryKey({ columns: [table.orgId, table.provider, table.issuer, table.subject] }),
    index('user_identities_subject_idx').on(table.provider, table.issuer, table.subject),
    index('user_identities_user_idx').on(table.userId),
  ],
)

/**
 * A sign-in on its way through an identity provider: the state (hashed), nonce and PKCE verifier
 * it must come back with, once, before it expires.
 */
export const ssoFlows = pgTable('sso_flows', {
  stateHash: text('state_hash').primaryKey(),
  orgId: bigint('org_id', { mode: 'number' }).references(() => organizations.id, {
    onDelete: 'cascade',
  }),
  provider: text('provider').notNull(),
  codeVerifier: text('code_verifier').notNull(),
  nonce: text('nonce').notNull(),
  email: text('email'),
  /** The hash of the starting browser's binding cookie: the return must come from that browser. */
  browserHash: text('browser_hash'),
  createdAt: stamp('created_at'),
  expiresAt: at('expires_at').notNull(),
  usedAt: at('used_at'),
})

/** The one-time code /auth/callback exchanges for tokens (hashed; a minute; once). */
export const ssoCodes = pgTable('sso_codes', {
  codeHash: text('code_hash').primaryKey(),
  userId: bigint('user_id', { mode: 'number' })
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** The flow's browser binding: the exchange must carry the same cookie. */
  browserHash: text('browser_hash'),
  createdAt: stamp('created_at'),
  expiresAt: at('expires_at').notNull(),
  usedAt: at('used_at'),
})
