import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { AUTH_TEXTS } from '../../contract/auth-texts.ts'
import { BILLING_TEXTS, LICENSE_LIMIT, pricingTiersSchema } from '../../contract/billing.ts'
import { apiPath, paths } from '../../contract/paths.ts'
import { loadTierCatalog, syncLicenses, tierCatalog } from '../../server/modules/account/license.ts'
import { signatureHeader } from '../../server/modules/billing/signature.ts'
import { call, get, insertUser, post, signIn } from './auth/helpers.ts'
import { withTestApp } from './support.ts'

/**
 * Licensing and payments: the tiers from configuration, usage against every limit, an expired
 * license falling back to the default tier, checkout references, and the Paddle webhook with
 * signatures made with a test secret (WH1-WH5) and the landing page's confirmation.
 */

const SECRET = 'pdl_ntfset_test_secret_of_quire_webhooks'
const ctx = withTestApp({
  payments: { enabled: false, environment: 'sandbox', webhookSecret: SECRET },
})

const team = tierCatalog().byKey('team')
const business = tierCatalog().byKey('business')
if (!team?.prices.monthly.paddle_price_id || !business?.prices.yearly.paddle_price_id)
  throw new Error('the shipped tiers sell Team and Business')
const TEAM_MONTHLY = team.prices.monthly.paddle_price_id
const BUSINESS_YEARLY = business.prices.yearly.paddle_price_id

async function member(role: 'admin' | 'approver' | 'contributor' | 'viewer', orgId?: number) {
  const fixture = await insertUser(ctx.database, { role, orgId })
  return { ...fixture, token: (await signIn(ctx, fixture.email)).access }
}

let counter = 0
const id = (prefix: string) =>
  `${prefix}_01${(Date.now().toString(36) + (counter++).toString(36)).padEnd(24, '0')}`

function notification(
  type: string,
  data: Record<string, unknown>,
  options: { eventId?: string; occurredAt?: Date } = {},
) {
  return {
    event_id: options.eventId ?? id('evt'),
    event_type: type,
    occurred_at: (options.occurredAt ?? new Date()).toISOString(),
    notification_id: id('ntf'),
    data,
  }
}

/** Delivers a body as Paddle does: the raw text, signed at `ts` (now unless told). */
async function deliver(
  raw: string,
  options: { secret?: string; ts?: number; header?: string | null } = {},
) {
  const ts = options.ts ?? Math.floor(Date.now() / 1000)
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  const header =
    options.header === undefined
      ? signatureHeader(options.secret ?? SECRET, ts, raw)
      : options.header
  if (header !== null) headers['paddle-signature'] = header
  const res = await ctx.app.request(apiPath(paths.payouts.webhook), {
    method: 'POST',
    headers,
    body: raw,
  })
  return { status: res.status, body: await res.json() }
}

const send = (event: object, options: Parameters<typeof deliver>[1] = {}) =>
  deliver(JSON.stringify(event), options)

async function licenseOf(orgId: number) {
  const { rows } = await ctx.database.pool.query(
    'select tier_key, max_users, max_answers, multi_language from licenses where org_id = $1',
    [orgId],
  )
  return rows[0]
}

async function referenceFor(token: string, priceId = TEAM_MONTHLY) {
  const res = await post(ctx, paths.payouts.checkout, { paddle_price_id: priceId }, token)
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.reference as string
}

/** A signed delivery's transaction.completed for the Team tier, bound by a checkout reference. */
const transactionCompleted = (transactionId: string, reference: string) =>
  notification('transaction.completed', {
    id: transactionId,
    status: 'completed',
    subscription_id: null,
    items: [{ price: { id: TEAM_MONTHLY }, quantity: 1 }],
    custom_data: { quire_reference: reference },
  })

const subscriptionData = (subscriptionId: string, reference: string | null, extra = {}) => ({
  id: subscriptionId,
  status: 'active',
  customer_id: 'ctm_01hv6y1jedq4p1n0yqn5ba3ky4',
  items: [{ price: { id: TEAM_MONTHLY }, quantity: 1 }],
  custom_data: reference ? { quire_reference: reference } : null,
  current_billing_period: { starts_at: '2026-11-01T00:00:00Z', ends_at: '2026-12-01T00:00:00Z' },
  ...extra,
})

describe('license tiers and usage', () => {
  it('lists every tier at both periods with the spec fields, one popular', async () => {
    const viewer = await member('viewer')
    const res = await get(ctx, paths.account.licenseTiers, viewer.token)
    expect(res.status).toBe(200)
    const tiers = pricingTiersSchema.parse(res.body)
    expect(tiers.length).toBe(tierCatalog().tiers.length * 2)
    expect(new Set(tiers.map((tier) => tier.billing_period))).toEqual(
      new Set(['monthly', 'yearly']),
    )
    expect(new Set(tiers.filter((tier) => tier.popular).map((tier) => tier.base_name)).size).toBe(1)
    const teamYearly = tiers.find((tier) => tier.id === 'team-yearly')
    expect(teamYearly).toMatchObject({ base_name: 'Team', billing_period: 'yearly' })
    expect(teamYearly?.price).toBeLessThan((team.prices.monthly.price ?? 0) * 12)
    expect((await get(ctx, paths.account.licenseTiers)).status).toBe(401)
  })

  it('shows what is used of each limit; an expired license falls back to the default tier', async () => {
    const admin = await member('admin')
    await member('viewer', admin.orgId)
    const usage = await get(ctx, paths.account.usage, admin.token)
    expect(usage.status).toBe(200)
    const free = tierCatalog().defaultTier.limits
    expect(usage.body).toMatchObject({ tier: 'free', is_active: true })
    expect(usage.body.limits).toEqual([
      { name: 'max_users', label: 'People', used: 2, max: free.max_users },
      { name: 'max_repository', label: 'Repository files', used: 0, max: free.max_repository },
      { name: 'max_questionnaire', label: 'Questionnaires', used: 0, max: free.max_questionnaire },
      { name: 'max_answers', label: 'Answers', used: 0, max: free.max_answers },
    ])
    // an evaluation license of 2 files that ended yesterday: the default tier's limits apply
    await ctx.database.pool.query(
      `update licenses set tier_key = 'evaluation', tier_name = 'Evaluation', max_repository = 2,
              is_evaluation = true, expiration_date = now() - interval '1 day' where org_id = $1`,
      [admin.orgId],
    )
    const expired = await get(ctx, paths.account.usage, admin.token)
    expect(expired.body).toMatchObject({ tier: 'free', is_active: false, is_evaluation: false })
    expect(expired.body.limits[1].max).toBe(free.max_repository)
    // in force, its own limit holds: a third file is refused with the limit's code
    await ctx.database.pool.query(
      `update licenses set expiration_date = now() + interval '1 day' where org_id = $1`,
      [admin.orgId],
    )
    const current = await get(ctx, paths.account.usage, admin.token)
    expect(current.body).toMatchObject({ tier: 'evaluation', is_evaluation: true, is_active: true })
    for (const name of ['a.txt', 'b.txt', 'c.txt']) {
      const form = new FormData()
      form.append('files', new File([`Policy ${name}: backups are encrypted.`], name))
      const res = await ctx.app.request(apiPath(paths.files.upload), {
        method: 'POST',
        headers: { authorization: `Bearer ${admin.token}` },
        body: form,
      })
      const body = await res.json()
      if (name === 'c.txt') {
        expect(res.status).toBe(403)
        expect(body).toMatchObject({
          code: LICENSE_LIMIT,
          detail: { limit: 'max_repository', max: 2 },
        })
      } else expect(res.status, JSON.stringify(body)).toBeLessThan(300)
    }
  })

  it('moves licenses on a tier to its edited limits, keeps hand-set ones, and refuses a bad file', async () => {
    const admin = await member('admin')
    const custom = await member('admin')
    // a custom deal: limits set by hand on the default tier
    await ctx.database.pool.query('update licenses set max_answers = 99999 where org_id = $1', [
      custom.orgId,
    ])
    const dir = mkdtempSync(path.join(tmpdir(), 'quire-tiers-'))
    const file = path.join(dir, 'tiers.json')
    await syncLicenses(ctx.database.pool, tierCatalog())
    const edited = JSON.parse(JSON.stringify({ default_tier: 'free', tiers: tierCatalog().tiers }))
    edited.tiers[0].limits.max_answers = 750
    writeFileSync(file, JSON.stringify(edited))
    expect(await syncLicenses(ctx.database.pool, loadTierCatalog(file))).toBeGreaterThanOrEqual(1)
    expect((await licenseOf(admin.orgId)).max_answers).toBe(750)
    expect((await licenseOf(custom.orgId)).max_answers).toBe(99999)
    // the same file again changes nothing; the shipped one puts the tier back
    expect(await syncLicenses(ctx.database.pool, loadTierCatalog(file))).toBe(0)
    await syncLicenses(ctx.database.pool, tierCatalog())
    expect((await licenseOf(admin.orgId)).max_answers).toBe(
      tierCatalog().defaultTier.limits.max_answers,
    )
    writeFileSync(file, JSON.stringify({ ...edited, default_tier: 'gold' }))
    expect(() => loadTierCatalog(file)).toThrow(/default_tier must be the key of one of the tiers/)
    edited.tiers[1].prices.yearly.paddle_price_id = edited.tiers[1].prices.monthly.paddle_price_id
    writeFileSync(file, JSON.stringify(edited))
    expect(() => loadTierCatalog(file)).toThrow(/one tier and period only/)
  })
})

describe('checkout references', () => {
  it('admins get a reference for a price the catalogue sells; others are refused', async () => {
    const admin = await member('admin')
    const contributor = await member('contributor', admin.orgId)
    const reference = await referenceFor(admin.token)
    expect(reference).toMatch(/^qr_[A-Za-z0-9_-]{32}$/)
    const unknown = await post(
      ctx,
      paths.payouts.checkout,
      { paddle_price_id: 'pri_01notsoldhere000000000000' },
      admin.token,
    )
    expect(unknown.status).toBe(400)
    expect(unknown.body.error).toBe(BILLING_TEXTS.unknownPrice)
    const refused = await post(
      ctx,
      paths.payouts.checkout,
      { paddle_price_id: TEAM_MONTHLY },
      contributor.token,
    )
    expect(refused.status).toBe(403)
    expect(refused.body.error).toBe(AUTH_TEXTS.permissionDenied)
    const config = await get(ctx, paths.payouts.config, contributor.token)
    expect(config.body).toMatchObject({ enabled: false, client_token: null })
  })
})

describe('payment webhook', () => {
  it('applies a signed subscription: the tier comes from the price, the organisation from the reference', async () => {
    const admin = await member('admin')
    const reference = await referenceFor(admin.token)
    const subscriptionId = id('sub')
    const res = await send(
      notification(
        'subscription.created',
        // custom data asking for another tier or organisation changes nothing (WH5)
        subscriptionData(subscriptionId, reference, {
          custom_data: { quire_reference: reference, tier: 'enterprise', org_id: 1 },
        }),
      ),
    )
    expect(res).toEqual({ status: 200, body: { status: 'applied' } })
    expect(await licenseOf(admin.orgId)).toMatchObject({
      tier_key: 'team',
      max_users: team.limits.max_users,
    })
    const subscription = await get(ctx, paths.payouts.subscription, admin.token)
    expect(subscription.body.subscription).toMatchObject({
      id: subscriptionId,
      status: 'active',
      tier: 'team',
      tier_name: 'Team',
      billing_period: 'monthly',
      current_period_end: '2026-12-01T00:00:00.000Z',
    })
    const log = await get(ctx, `${paths.account.auditLog}?action=license.`, admin.token)
    expect(log.body.results[0]).toMatchObject({
      action: 'license.changed',
      detail: { before: { tier: 'free' }, after: { tier: 'team' } },
    })

    // cancelled: back on the default tier
    const canceled = await send(
      notification(
        'subscription.canceled',
        subscriptionData(subscriptionId, null, {
          status: 'canceled',
          canceled_at: new Date().toISOString(),
        }),
      ),
    )
    expect(canceled.body.status).toBe('applied')
    expect((await licenseOf(admin.orgId)).tier_key).toBe('free')
  })

  it('refuses a missing (401: no session either), wrong, re-serialised or stale signature (400), changing nothing', async () => {
    const admin = await member('admin')
    const reference = await referenceFor(admin.token)
    const event = notification('subscription.created', subscriptionData(id('sub'), reference))
    const raw = JSON.stringify(event)
    // unsigned, it is the landing page's call, which needs a session
    const unsigned = await deliver(raw, { header: null })
    expect(unsigned.status).toBe(401)
    expect(unsigned.body.error).toBe(AUTH_TEXTS.authenticationRequired)
    const refusals = [
      await deliver(raw, { secret: 'another-secret-of-someone-else' }),
      await deliver(raw, { header: 'ts=12;h1=zz' }),
      // signed, then re-serialised with other whitespace
      await deliver(JSON.stringify(event, null, 2), {
        header: signatureHeader(SECRET, Math.floor(Date.now() / 1000), raw),
      }),
      await deliver(raw, { ts: Math.floor(Date.now() / 1000) - 30 }),
      await deliver(raw, { ts: Math.floor(Date.now() / 1000) + 30 }),
    ]
    for (const refusal of refusals) {
      expect(refusal.status).toBe(400)
      expect(refusal.body.error).toBe(BILLING_TEXTS.webhookFailed)
    }
    expect((await licenseOf(admin.orgId)).tier_key).toBe('free')
    const { rows } = await ctx.database.pool.query(
      'select count(*)::int as n from payment_events where event_id = $1',
      [event.event_id],
    )
    expect(rows[0].n).toBe(0)
    // any matching h1 passes (a secret being rotated)
    const ts = Math.floor(Date.now() / 1000)
    const rotated = `ts=${ts};h1=${'0'.repeat(64)};${signatureHeader(SECRET, ts, raw).split(';')[1]}`
    expect((await deliver(raw, { header: rotated })).body.status).toBe('applied')
  })

  it('applies an event once, also when redelivered at the same moment (WH3)', async () => {
    const admin = await member('admin')
    const reference = await referenceFor(admin.token, BUSINESS_YEARLY)
    const event = notification(
      'subscription.created',
      subscriptionData(id('sub'), reference, { items: [{ price: { id: BUSINESS_YEARLY } }] }),
    )
    const results = await Promise.all(Array.from({ length: 5 }, () => send(event)))
    expect(results.every((result) => result.status === 200)).toBe(true)
    expect(results.map((result) => result.body.status).sort()).toEqual([
      'applied',
      'duplicate',
      'duplicate',
      'duplicate',
      'duplicate',
    ])
    const log = await get(ctx, `${paths.account.auditLog}?action=license.`, admin.token)
    expect(log.body.count).toBe(1)
    expect(await licenseOf(admin.orgId)).toMatchObject({
      tier_key: 'business',
      multi_language: true,
    })
  })

  it('never lets an older event overwrite newer state (WH4)', async () => {
    const admin = await member('admin')
    const reference = await referenceFor(admin.token)
    const subscriptionId = id('sub')
    const later = new Date(Date.now() - 1000)
    const earlier = new Date(Date.now() - 60_000)
    await send(
      notification(
        'subscription.canceled',
        subscriptionData(subscriptionId, reference, { status: 'canceled' }),
        {
          occurredAt: later,
        },
      ),
    )
    const stale = await send(
      notification('subscription.activated', subscriptionData(subscriptionId, reference), {
        occurredAt: earlier,
      }),
    )
    expect(stale.body.status).toBe('stale')
    expect((await licenseOf(admin.orgId)).tier_key).toBe('free')
    expect((await get(ctx, paths.payouts.subscription, admin.token)).body.subscription.status).toBe(
      'canceled',
    )
  })

  it('acknowledges events it does not handle, and those of no known organisation, changing nothing', async () => {
    const unknownType = await send(notification('customer.created', { id: id('ctm') }))
    expect(unknownType).toEqual({ status: 200, body: { status: 'ignored: event type' } })
    const stranger = await send(
      notification('subscription.created', subscriptionData(id('sub'), 'qr_guessed-reference')),
    )
    expect(stranger.body.status).toBe('ignored: organisation unknown')
    const malformed = await deliver('{"event_id":')
    expect(malformed.status).toBe(400)
  })

  it('the landing page confirms a transaction once a signed delivery recorded it', async () => {
    const admin = await member('admin')
    const other = await member('admin')
    const reference = await referenceFor(admin.token)
    const transactionId = id('txn')
    const pending = await post(ctx, paths.payouts.webhook, { data: transactionId }, admin.token)
    expect(pending.status).toBe(202)
    expect(pending.body).toEqual({ status: 'pending' })
    await send(transactionCompleted(transactionId, reference))
    const done = await post(ctx, paths.payouts.webhook, { data: transactionId }, admin.token)
    expect(done.status).toBe(200)
    expect(done.body).toEqual({
      status: 'processed',
      transaction_status: 'completed',
      tier_name: 'Team',
    })
    expect((await licenseOf(admin.orgId)).tier_key).toBe('team')
    // another organisation's transaction is a 404
    expect(
      (await post(ctx, paths.payouts.webhook, { data: transactionId }, other.token)).status,
    ).toBe(404)
    // a payload that is no transaction id
    const invalid = await post(
      ctx,
      paths.payouts.webhook,
      { data: 'not-a-transaction' },
      admin.token,
    )
    expect(invalid.status).toBe(400)
    expect(invalid.body.error).toBe(BILLING_TEXTS.webhookFailed)
    expect((await post(ctx, paths.payouts.webhook, {}, admin.token)).status).toBe(400)
  })

  it('the landing page’s transaction status needs a signed-in session (401 without one)', async () => {
    const admin = await member('admin')
    const reference = await referenceFor(admin.token)
    const transactionId = id('txn')
    await send(transactionCompleted(transactionId, reference))
    for (const token of [undefined, 'not-a-token']) {
      const anonymous = await post(ctx, paths.payouts.webhook, { data: transactionId }, token)
      expect(anonymous.status, String(token)).toBe(401)
      expect(anonymous.body).not.toHaveProperty('transaction_status')
      // an unknown transaction is no different: nothing is read without a session
      expect((await post(ctx, paths.payouts.webhook, { data: id('txn') }, token)).status).toBe(401)
    }
    expect(
      (await post(ctx, paths.payouts.webhook, { data: transactionId }, admin.token)).status,
    ).toBe(200)
  })

  it('the subscription needs sign-in', async () => {
    expect((await call(ctx, 'GET', paths.payouts.subscription)).status).toBe(401)
  })
})

describe('payment webhook without a secret', () => {
  const bare = withTestApp()
  it('refuses every delivery, however it is signed', async () => {
    const raw = JSON.stringify(notification('customer.created', { id: id('ctm') }))
    const res = await bare.app.request(apiPath(paths.payouts.webhook), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'paddle-signature': signatureHeader(SECRET, Math.floor(Date.now() / 1000), raw),
      },
      body: raw,
    })
    expect(res.status).toBe(400)
    expect((await res.json()).error).toBe(BILLING_TEXTS.webhookFailed)
  })
})
