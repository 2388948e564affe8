import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { paths } from '../../../contract/paths.ts'
import { WEBHOOK_EVENTS, WEBHOOK_TEXTS } from '../../../contract/platform.ts'
import {
  createWebhookSender,
  emitStaleAnswers,
  WEBHOOK_SECRET_PURPOSE,
} from '../../../server/modules/platform/webhook-sender.ts'
import { createSecretBox } from '../../../server/modules/sso/secrets.ts'
import { exported } from '../../support/exports.ts'
import { addQa, questionnaire, rowsOf, settle } from '../answering/helpers.ts'
import { get, insertUser, post, signIn, type TestApp } from '../auth/helpers.ts'
import { createTestApp, TEST_JWT_SECRET } from '../support.ts'

/**
 * Outgoing webhooks (issue 41): registered by admins; each event of the organisation delivered
 * to a receiver on loopback, signed as Standard Webhooks says (checked with the standardwebhooks
 * library); a receiver that fails three times gets it on the fourth attempt, every attempt in
 * the log, and a replay sends it again; an endpoint failing for a day is disabled.
 */

interface Hit {
  headers: IncomingHttpHeaders
  body: string
}
const hits: Hit[] = []
let failures = 0
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = []
  req.on('data', (chunk: Buffer) => chunks.push(chunk))
  req.on('end', () => {
    if (failures > 0) {
      failures -= 1
      res.writeHead(500).end('down for maintenance')
      return
    }
    hits.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
    res.writeHead(204).end()
  })
})
let ctx: TestApp
let hostPort = ''
const sender = () =>
  createWebhookSender({
    database: ctx.database,
    box: createSecretBox(TEST_JWT_SECRET, WEBHOOK_SECRET_PURPOSE),
    allow: [hostPort],
  })

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  hostPort = `127.0.0.1:${(receiver.address() as AddressInfo).port}`
  ctx = await createTestApp({ jobs: true, urlFetchAllow: [hostPort] })
})
afterAll(async () => {
  await ctx?.close()
  await new Promise((resolve) => receiver.close(resolve))
})

async function admin() {
  const fixture = await insertUser(ctx.database, { role: 'admin' })
  return { ...fixture, token: (await signIn(ctx, fixture.email)).access }
}
/** Delivers until the receiver holds `count` hits in all (or 20 s pass). */
async function delivered(count: number) {
  const send = sender()
  try {
    for (let i = 0; i < 400 && hits.length < count; i++) {
      await send.deliverDue()
      if (hits.length < count) await new Promise((resolve) => setTimeout(resolve, 50))
    }
  } finally {
    await send.close()
  }
}
const eventsOf = (secret: string, since: number) =>
  hits.slice(since).map((hit) => {
    const verified = new Webhook(secret.replace(/^whsec_/, '')).verify(hit.body, {
      'webhook-id': String(hit.headers['webhook-id']),
      'webhook-timestamp': String(hit.headers['webhook-timestamp']),
      'webhook-signature': String(hit.headers['webhook-signature']),
    }) as { type: string; data: Record<string, unknown> }
    return verified
  })

describe('outgoing webhooks (issue 41)', () => {
  it('are registered by admins: https, or an address URL_FETCH_ALLOW names; the secret shown once', async () => {
    const owner = await admin()
    const W = paths.platform
    const plain = await post(
      ctx,
      W.webhooks,
      { url: 'http://example.com/hook', events: ['answer.approved'] },
      owner.token,
    )
    expect(plain.status).toBe(400)
    expect(plain.body.error).toBe(WEBHOOK_TEXTS.https)
    const none = await post(
      ctx,
      W.webhooks,
      { url: 'https://example.com/hook', events: [] },
      owner.token,
    )
    expect(none.status).toBe(400)
    expect(JSON.stringify(none.body)).toContain('Choose at least one event')
    const made = await post(
      ctx,
      W.webhooks,
      { url: `http://${hostPort}/hook`, events: ['answer.approved'], kind: 'slack' },
      owner.token,
    )
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    expect(made.body.secret).toMatch(/^whsec_/)
    const listed = await get(ctx, W.webhooks, owner.token)
    expect(listed.body.results).toHaveLength(1)
    expect(JSON.stringify(listed.body)).not.toContain(made.body.secret)
    const { rows } = await ctx.database.pool.query(
      'select secret_sealed from webhooks where id = $1',
      [made.body.id],
    )
    expect(rows[0].secret_sealed).not.toContain(made.body.secret.slice(6))
    // only admins, never a key, never another organisation
    const approver = await insertUser(ctx.database, { role: 'approver', orgId: owner.orgId })
    const approverToken = (await signIn(ctx, approver.email)).access
    expect((await get(ctx, W.webhooks, approverToken)).status).toBe(403)
    const key = (await post(ctx, W.apiKeys, { name: 'k', scopes: ['read', 'write'] }, owner.token))
      .body.key
    expect((await get(ctx, W.webhooks, key)).status).toBe(403)
    const stranger = await admin()
    expect((await get(ctx, W.webhookDeliveries(made.body.id), stranger.token)).status).toBe(404)
    expect((await post(ctx, W.webhookDelete(made.body.id), {}, stranger.token)).status).toBe(404)
    expect((await post(ctx, W.webhookDelete(made.body.id), {}, owner.token)).status).toBe(200)
  })

  it('delivers each event of the organisation, signed as Standard Webhooks says', async () => {
    const owner = await admin()
    const made = await post(
      ctx,
      paths.platform.webhooks,
      { url: `http://${hostPort}/all`, events: [...WEBHOOK_EVENTS] },
      owner.token,
    )
    const secret = made.body.secret as string
    const since = hits.length

    await addQa(ctx, owner.token, {
      question: 'Do you encrypt data at rest?',
      answer: 'Yes, with AES-256.',
      dropdown_value: 'Yes',
    })
    const q = await questionnaire(ctx, owner.token, ['Do you encrypt data at rest?'])
    await post(ctx, paths.questionnaires.generate(q.id), {}, owner.token)
    await settle(ctx, owner.token, q.id)
    const [row] = await rowsOf(ctx, owner.token, q.id)
    expect(
      (await post(ctx, paths.questionnaires.answer.approve(row.answer.id), {}, owner.token)).status,
    ).toBe(200)
    const filled = await exported(ctx, owner.token, { questionnaire_id: q.id })
    expect(filled.run?.status).toBe('done')
    await post(
      ctx,
      paths.trust.settings,
      { slug: `hooks-${Date.now().toString(36)}`, published: true },
      owner.token,
    )
    const page = await get(ctx, paths.trust.settings, owner.token)
    const asked = await post(ctx, paths.publicTrust.requests(page.body.slug), {
      name: 'Vera Visitor',
      email: 'vera@prospect.example',
      company: 'Prospect Ltd',
      nda_accepted: true,
      nda_version: page.body.nda_version,
    })
    expect(asked.status, JSON.stringify(asked.body)).toBe(201)
    const added = await post(
      ctx,
      paths.knowledgeBase.qa,
      { question: 'Do you run background checks?', answer: 'Yes.' },
      owner.token,
    )
    const item = added.body.id as number
    await ctx.database.pool.query(
      `update kb_qa_items i set last_reviewed_at = now() - make_interval(days => coalesce(i.review_cycle_days, o.review_cycle_days)) - interval '1 hour'
         from organizations o where o.id = i.org_id and i.id = $1`,
      [item],
    )
    expect(await emitStaleAnswers(ctx.database)).toBeGreaterThanOrEqual(1)

    await delivered(since + WEBHOOK_EVENTS.length)
    const events = eventsOf(secret, since)
    expect(events.map((event) => event.type).sort()).toEqual([...WEBHOOK_EVENTS].sort())
    const byType = Object.fromEntries(events.map((event) => [event.type, event.data]))
    expect(byType['questionnaire.analysed']).toMatchObject({ questionnaire_id: q.id, questions: 1 })
    expect(byType['generation.completed']).toMatchObject({ questionnaire_id: q.id, answered: 1 })
    expect(byType['answer.approved']).toMatchObject({ question: 'Do you encrypt data at rest?' })
    expect(byType['questionnaire.exported']).toMatchObject({ questionnaire_id: q.id })
    expect(byType['trust.access_requested']).toMatchObject({ company: 'Prospect Ltd' })
    expect(byType['library.answer_stale']).toMatchObject({ item_id: item })
    // a tampered body fails the check
    const first = hits[since] as Hit
    expect(() =>
      new Webhook(secret.replace(/^whsec_/, '')).verify(`${first.body} `, {
        'webhook-id': String(first.headers['webhook-id']),
        'webhook-timestamp': String(first.headers['webhook-timestamp']),
        'webhook-signature': String(first.headers['webhook-signature']),
      }),
    ).toThrow()
  })

  it('tries again after failures, keeps every attempt, replays, and disables an endpoint failing for a day', async () => {
    const owner = await admin()
    const made = await post(
      ctx,
      paths.platform.webhooks,
      { url: `http://${hostPort}/flaky`, events: ['trust.access_requested'] },
      owner.token,
    )
    const id = made.body.id as number
    await post(
      ctx,
      paths.trust.settings,
      { slug: `flaky-${Date.now().toString(36)}`, published: true },
      owner.token,
    )
    const page = await get(ctx, paths.trust.settings, owner.token)
    const ask = (email: string) =>
      post(ctx, paths.publicTrust.requests(page.body.slug), {
        name: 'Vera Visitor',
        email,
        company: 'Prospect Ltd',
        nda_accepted: true,
        nda_version: page.body.nda_version,
      })
    failures = 3
    const since = hits.length
    await ask('first@prospect.example')
    const send = sender()
    try {
      for (let i = 0; i < 4; i++) {
        await send.deliverDue()
        // the next attempt is due now rather than in 5 s, 5 min, 30 min
        await ctx.database.pool.query(
          `update webhook_deliveries set next_attempt_at = now() where webhook_id = $1 and status = 'pending'`,
          [id],
        )
      }
      expect(hits.length).toBe(since + 1)
      const log = await get(ctx, paths.platform.webhookDeliveries(id), owner.token)
      expect(log.status).toBe(200)
      const [delivery] = log.body.results
      expect(delivery.status).toBe('delivered')
      expect(delivery.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([
        500, 500, 500, 204,
      ])
      expect(delivery.attempts[0].error).toBe('HTTP 500')
      expect(delivery.attempts.every((a: { latency_ms: number }) => a.latency_ms >= 0)).toBe(true)

      // a replay sends the same message again
      expect(
        (await post(ctx, paths.platform.webhookReplay(id, delivery.id), {}, owner.token)).status,
      ).toBe(200)
      await send.deliverDue()
      expect(hits.length).toBe(since + 2)
      expect(hits.at(-1)?.headers['webhook-id']).toBe(delivery.message_id)

      // failing for a day: disabled, audited, and enabled again by an admin
      await ctx.database.pool.query(
        `update webhooks set failing_since = now() - interval '25 hours' where id = $1`,
        [id],
      )
      failures = 1
      await ask('second@prospect.example')
      await send.deliverDue()
      const after = await get(ctx, paths.platform.webhooks, owner.token)
      expect(after.body.results[0]).toMatchObject({
        enabled: false,
        disabled_reason: WEBHOOK_TEXTS.disabled,
      })
      const audit = await ctx.database.pool.query(
        `select 1 from audit_events where org_id = $1 and action = 'webhook.disabled'`,
        [owner.orgId],
      )
      expect(audit.rowCount).toBe(1)
      const enabled = await post(ctx, paths.platform.webhookEnable(id), {}, owner.token)
      expect(enabled.body).toMatchObject({ enabled: true, failing_since: null })
    } finally {
      failures = 0
      await send.close()
    }
  })

  it('sends a Slack or Teams endpoint a message of the event', async () => {
    const owner = await admin()
    await post(
      ctx,
      paths.platform.webhooks,
      { url: `http://${hostPort}/slack`, events: ['trust.access_requested'], kind: 'slack' },
      owner.token,
    )
    await post(
      ctx,
      paths.trust.settings,
      { slug: `slack-${Date.now().toString(36)}`, published: true },
      owner.token,
    )
    const page = await get(ctx, paths.trust.settings, owner.token)
    const since = hits.length
    await post(ctx, paths.publicTrust.requests(page.body.slug), {
      name: 'Sam Slack',
      email: 'sam@prospect.example',
      company: 'Prospect Ltd',
      nda_accepted: true,
      nda_version: page.body.nda_version,
    })
    await delivered(since + 1)
    expect(JSON.parse(hits[since]?.body ?? '{}')).toEqual({
      text: 'Quire: Sam Slack (Prospect Ltd) asks for the trust centre’s documents under NDA.',
    })
  })
})
