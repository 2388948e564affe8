/**
 * The drizzle schema. Every tenant-owned table carries `org_id`; services take it from the
 * authenticated context, never from the request. Migrations are generated from this file with
 * `npm run db:generate`, committed, and applied at start.
 */
export * from './schema/accounts.ts'
export * from './schema/billing.ts'
export * from './schema/chat.ts'
export * from './schema/exports.ts'
export * from './schema/knowledge.ts'
export * from './schema/platform.ts'
export * from './schema/products.ts'
export * from './schema/questionnaires.ts'
export * from './schema/sso.ts'
export * from './schema/support.ts'
export * from './schema/trust.ts'
