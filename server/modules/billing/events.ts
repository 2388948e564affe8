import * as z from 'zod/mini'
import { SUBSCRIPTION_STATUSES, TRANSACTION_STATUSES } from '../../../contract/billing.ts'
import type { Database } from '../../db/index.ts'
import { inTransaction } from '../../db/index.ts'
import type { Logger } from '../../logger.ts'
import { limitsOf, limitValues, type TierCatalog, type TierConfig } from '../account/license.ts'

/**
 * Applies a verified Paddle notification: once per event id (WH3), never letting an older event
 * overwrite newer state (WH4), the tier taken only from the price id of the verified items (WH5)
 * and the organisation only from what Quire issued (a checkout reference, or a subscription or
 * transaction it already knows): custom data can name a reference, never an organisation.
 */

const item = z.looseObject({
  price: z.optional(z.nullable(z.looseObject({ id: z.optional(z.nullable(z.string())) }))),
  price_id: z.optional(z.nullable(z.string())),
})

const entity = z.looseObject({
  id: z.string().check(z.minLength(1), z.maxLength(100)),
  status: z.optional(z.nullable(z.string())),
  customer_id: z.optional(z.nullable(z.string())),
  subscription_id: z.optional(z.nullable(z.string())),
  items: z.optional(z.nullable(z.array(item))),
  custom_data: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  current_billing_period: z.optional(
    z.nullable(z.looseObject({ ends_at: z.optional(z.nullable(z.string())) })),
  ),
  canceled_at: z.optional(z.nullable(z.string())),
})

export const notificationSchema = z.looseObject({
  event_id: z.string().check(z.minLength(1), z.maxLength(100)),
  event_type: z.string().check(z.minLength(1), z.maxLength(100)),
  occurred_at: z.iso.datetime({ offset: true }),
  data: entity,
})
export type Notification = z.infer<typeof notificationSchema>

export type Outcome =
  | 'applied'
  | 'stale'
  | 'duplicate'
  | 'ignored: event type'
  | 'ignored: organisation unknown'
  | 'ignored: status'

/** The key of the checkout reference inside the provider's custom data. */
export const REFERENCE_KEY = 'quire_reference'

type Client = Parameters<Parameters<typeof inTransaction>[1]>[0]

const priceOf = (data: Notification['data']) =>
  data.items?.map((entry) => entry.price?.id ?? entry.price_id ?? null).find(Boolean) ?? null

const dateOrNull = (value: string | null | undefined) => {
  if (!value) return null
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? null : date
}

export function createEventProcessor(deps: {
  database: Database
  catalog: () => TierCatalog
  logger: Logger
}) {
  const { pool } = deps.database

  async function orgByReference(client: Client, data: Notification['data']) {
    const reference = data.custom_data?.[REFERENCE_KEY]
    if (typeof reference !== 'string' || reference.length > 100) return null
    const { rows } = await client.query<{ org_id: string }>(
      'select org_id from checkout_references where reference = $1',
      [reference],
    )
    return rows[0] ? Number(rows[0].org_id) : null
  }

  async function orgOfSubscription(client: Client, id: string | null | undefined) {
    if (!id) return null
    const { rows } = await client.query<{ org_id: string }>(
      'select org_id from subscriptions where id = $1',
      [id],
    )
    return rows[0] ? Number(rows[0].org_id) : null
  }

  async function orgOfTransaction(client: Client, id: string) {
    const { rows } = await client.query<{ org_id: string | null }>(
      'select org_id from payment_transactions where id = $1',
      [id],
    )
    return rows[0]?.org_id ? Number(rows[0].org_id) : null
  }

  /** The organisation of a transaction that already named this subscription. */
  async function orgOfTransactionsOf(client: Client, subscriptionId: string) {
    const { rows } = await client.query<{ org_id: string }>(
      'select org_id from payment_transactions where subscription_id = $1 and org_id is not null limit 1',
      [subscriptionId],
    )
    return rows[0] ? Number(rows[0].org_id) : null
  }

  /** Puts the organisation on a tier (or back on the default one), audited. */
  async function setTier(client: Client, orgId: number, tier: TierConfig, eventId: string) {
    const { rows } = await client.query<{ tier_key: string }>(
      'select tier_key from licenses where org_id = $1 for update',
      [orgId],
    )
    const before = rows[0]?.tier_key ?? null
    const limits = limitsOf(tier)
    await client.query(
      `update licenses set tier_key = $2, tier_name = $3, max_users = $4, max_repository = $5,
              max_questionnaire = $6, max_answers = $7, multi_language = $8, is_evaluation = $9,
              is_active = true, expiration_date = null
        where org_id = $1`,
      [orgId, limits.tierKey, ...limitValues(limits)],
    )
    if (before !== tier.key) {
      await client.query(
        `insert into audit_events (org_id, actor_id, action, target, detail)
         values ($1, null, 'license.changed', $2, $3)`,
        [
          orgId,
          `license:${orgId}`,
          { before: { tier: before }, after: { tier: tier.key }, event_id: eventId },
        ],
      )
    }
  }

  async function subscriptionEvent(client: Client, event: Notification) {
    const data = event.data
    const status = data.status
    if (!status || !(SUBSCRIPTION_STATUSES as readonly string[]).includes(status))
      return { outcome: 'ignored: status' as const, orgId: null }
    const orgId =
      (await orgOfSubscription(client, data.id)) ??
      (await orgOfTransactionsOf(client, data.id)) ??
      (await orgByReference(client, data))
    if (orgId === null) return { outcome: 'ignored: organisation unknown' as const, orgId: null }
    const occurred = new Date(event.occurred_at)
    const priceId = priceOf(data)
    const sold = priceId ? deps.catalog().byPriceId(priceId) : undefined
    const { rows } = await client.query<{ id: string }>(
      `insert into subscriptions (id, org_id, status, price_id, tier_key, billing_period, customer_id,
                                  current_period_end, canceled_at, event_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       on conflict (id) do update set status = excluded.status, price_id = excluded.price_id,
              tier_key = excluded.tier_key, billing_period = excluded.billing_period,
              customer_id = excluded.customer_id, current_period_end = excluded.current_period_end,
              canceled_at = excluded.canceled_at, event_at = excluded.event_at, updated_at = now()
        where subscriptions.event_at <= excluded.event_at
       returning id`,
      [
        data.id,
        orgId,
        status,
        priceId,
        sold?.tier.key ?? null,
        sold?.period ?? null,
        data.customer_id ?? null,
        dateOrNull(data.current_billing_period?.ends_at),
        dateOrNull(data.canceled_at),
        occurred,
      ],
    )
    if (!rows[0]) return { outcome: 'stale' as const, orgId }
    if (status === 'canceled' || status === 'paused') {
      await setTier(client, orgId, deps.catalog().defaultTier, event.event_id)
    } else if (sold) {
      await setTier(client, orgId, sold.tier, event.event_id)
    } else {
      deps.logger.warn({ priceId, eventId: event.event_id }, 'subscription of an unknown price')
    }
    return { outcome: 'applied' as const, orgId }
  }

  async function transactionEvent(client: Client, event: Notification) {
    const data = event.data
    const status = data.status
    if (!status || !(TRANSACTION_STATUSES as readonly string[]).includes(status))
      return { outcome: 'ignored: status' as const, orgId: null }
    const orgId =
      (await orgOfTransaction(client, data.id)) ??
      (await orgOfSubscription(client, data.subscription_id)) ??
      (await orgByReference(client, data))
    if (orgId === null) return { outcome: 'ignored: organisation unknown' as const, orgId: null }
    const priceId = priceOf(data)
    const sold = priceId ? deps.catalog().byPriceId(priceId) : undefined
    const { rows } = await client.query<{ id: string }>(
      `insert into payment_transactions (id, org_id, subscription_id, status, price_id, tier_key, event_at)
       values ($1, $2, $3, $4, $5, $6, $7)
       on conflict (id) do update set status = excluded.status, subscription_id = excluded.subscription_id,
              price_id = excluded.price_id, tier_key = excluded.tier_key, event_at = excluded.event_at,
              updated_at = now()
        where payment_transactions.event_at <= excluded.event_at
       returning id`,
      [
        data.id,
        orgId,
        data.subscription_id ?? null,
        status,
        priceId,
        sold?.tier.key ?? null,
        new Date(event.occurred_at),
      ],
    )
    if (!rows[0]) return { outcome: 'stale' as const, orgId }
    // a paid first transaction grants the tier before its subscription's own event arrives
    if ((status === 'completed' || status === 'paid') && sold && !data.subscription_id) {
      await setTier(client, orgId, sold.tier, event.event_id)
    } else if ((status === 'completed' || status === 'paid') && sold) {
      const { rows: subscription } = await client.query<{ status: string }>(
        'select status from subscriptions where id = $1',
        [data.subscription_id],
      )
      const current = subscription[0]?.status
      if (current === undefined || current === 'active' || current === 'trialing')
        await setTier(client, orgId, sold.tier, event.event_id)
    }
    return { outcome: 'applied' as const, orgId }
  }

  /** Records and applies one verified notification; a redelivered event id changes nothing. */
  async function apply(event: Notification): Promise<Outcome> {
    return inTransaction(pool, async (client) => {
      const { rows } = await client.query(
        `insert into payment_events (event_id, event_type, occurred_at, outcome, payload)
         values ($1, $2, $3, 'received', $4) on conflict (event_id) do nothing returning event_id`,
        [event.event_id, event.event_type, new Date(event.occurred_at), event],
      )
      if (!rows[0]) return 'duplicate'
      const family = event.event_type.split('.')[0]
      const result =
        family === 'subscription'
          ? await subscriptionEvent(client, event)
          : family === 'transaction'
            ? await transactionEvent(client, event)
            : { outcome: 'ignored: event type' as const, orgId: null }
      await client.query(
        'update payment_events set outcome = $2, org_id = $3 where event_id = $1',
        [event.event_id, result.outcome, result.orgId],
      )
      return result.outcome
    })
  }

  return { apply }
}
