import { sql } from 'drizzle-orm'
import { bigint, check, index, jsonb, pgTable, text } from 'drizzle-orm/pg-core'
import { orgRef, userRef } from './accounts.ts'
import { at, stamp, timestamps } from './columns.ts'

/** Paid plans: checkout references, the provider's subscriptions and transactions, its events. */

/**
 * A checkout an admin opened: the random reference goes to the provider as custom data, and the
 * webhook maps it back to the organisation it was issued for (WH5: a reference only names the
 * organisation that asked for it; the tier comes from the verified price id).
 */
export const checkoutReferences = pgTable(
  'checkout_references',
  {
    reference: text('reference').primaryKey(),
    orgId: orgRef(),
    createdBy: userRef('created_by'),
    priceId: text('price_id').notNull(),
    createdAt: stamp('created_at'),
  },
  (table) => [index('checkout_references_org_idx').on(table.orgId)],
)

/** The provider's subscription of an organisation, as its newest verified event left it. */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: text('id').primaryKey(),
    orgId: orgRef(),
    status: text('status').notNull(),
    priceId: text('price_id'),
    tierKey: text('tier_key'),
    billingPeriod: text('billing_period'),
    customerId: text('customer_id'),
    currentPeriodEnd: at('current_period_end'),
    canceledAt: at('canceled_at'),
    /** occurred_at of the event this row reflects: an older event never overwrites it (WH4). */
    eventAt: at('event_at').notNull(),
    ...timestamps,
  },
  (table) => [
    index('subscriptions_org_idx').on(table.orgId),
    check(
      'subscriptions_status_check',
      sql`${table.status} in ('active', 'trialing', 'past_due', 'paused', 'canceled')`,
    ),
  ],
)

/** The provider's transactions (a checkout's payment, each renewal). */
export const transactions = pgTable(
  'payment_transactions',
  {
    id: text('id').primaryKey(),
    orgId: bigint('org_id', { mode: 'number' }),
    subscriptionId: text('subscription_id'),
    status: text('status').notNull(),
    priceId: text('price_id'),
    tierKey: text('tier_key'),
    eventAt: at('event_at').notNull(),
    ...timestamps,
  },
  (table) => [
    index('payment_transactions_org_idx').on(table.orgId),
    check(
      'payment_transactions_status_check',
      sql`${table.status} in ('draft', 'ready', 'billed', 'paid', 'completed', 'canceled', 'past_due')`,
    ),
  ],
)

/** Every verified event, once (WH3): a redelivery finds its id here and changes nothing. */
export const paymentEvents = pgTable('payment_events', {
  eventId: text('event_id').primaryKey(),
  eventType: text('event_type').notNull(),
  occurredAt: at('occurred_at').notNull(),
  orgId: bigint('org_id', { mode: 'number' }),
  /** What the event did: applied, stale (older than the state), ignored (and why). */
  outcome: text('outcome').notNull(),
  payload: jsonb('payload').notNull(),
  receivedAt: stamp('created_at'),
})

/**
 * The limits each configured tier had at the last start. An edited tiers file moves the licenses
 * still on a tier's previous limits to its new ones; a license whose limits were set by hand (a
 * custom deal) keeps them.
 */
export const licenseTierConfigs = pgTable('license_tier_configs', {
  key: text('key').primaryKey(),
  limits: jsonb('limits').notNull(),
  updatedAt: stamp('updated_at'),
})
