import { Webhook as Signer } from 'standardwebhooks'
import { request } from 'undici'
import type { WebhookEvent, WebhookKind } from '../../../contract/platform.ts'
import { WEBHOOK_TEXTS } from '../../../contract/platform.ts'
import { writeAudit } from '../../db/audit.ts'
import { type Database, inTransaction } from '../../db/index.ts'
import type { Logger } from '../../logger.ts'
import type { Mailer } from '../../mail/index.ts'
import { compose } from '../../mail/messages.ts'
import { createGuardedAgent, type LookupFunction } from '../../net/safe-fetch.ts'
import type { SecretBox } from '../sso/secrets.ts'

/**
 * Delivers what webhooks.ts recorded (issue 41): due deliveries are claimed (skip locked, so any
 * number of workers share them), POSTed through the outbound guard with the Standard Webhooks
 * headers, and each attempt is kept. A failure is tried again after 5 s, 5 min, 30 min, 2 h, 5 h
 * and 10 h (the delivery then failed); an endpoint failing for a day is disabled and its admins
 * are told. Slack and Teams endpoints get a message of the same event.
 */

/** The job that delivers: every minute, and at once when an event or a replay asks for it. */
export const WEBHOOK_JOB = 'webhooks.deliver'
export const WEBHOOK_CRON = '* * * * *'
/** The secret box's purpose: webhook secrets are sealed under a key of their own. */
export const WEBHOOK_SECRET_PURPOSE = 'webhook-secret'
/** Within a run, deliveries falling due this soon are waited for (the 5 s retry). */
const RUN_WINDOW_MS = 50_000

/** Seconds before each retry: the Standard Webhooks schedule, about 17.5 h in all. */
export const RETRY_DELAYS_S = [5, 300, 1800, 7200, 18_000, 36_000]
/** An endpoint failing this long is disabled. */
export const DISABLE_AFTER_MS = 24 * 3600_000
/** A claimed delivery is left to its sender this long before another may take it. */
const LEASE_S = 120
const TIMEOUT_MS = 10_000

const SUMMARIES: Record<WebhookEvent, (data: Record<string, unknown>) => string> = {
  'questionnaire.analysed': (d) =>
    `Questionnaire “${d.name}” was read: ${d.questions ?? 0} questions.`,
  'generation.completed': (d) =>
    `Answers were drafted for “${d.name}”: ${d.answered ?? 0} of ${d.questions ?? 0} answered.`,
  'answer.approved': (d) => `An answer of “${d.questionnaire}” was approved: ${d.question}`,
  'questionnaire.exported': (d) => `“${d.name}” was exported, filled.`,
  'trust.access_requested': (d) =>
    `${d.name} (${d.company}) asks for the trust centre’s documents under NDA.`,
  'library.answer_stale': (d) => `A library answer is due for review: ${d.question}`,
}

/** What an endpoint of a kind receives for an event. */
export function bodyOf(
  kind: WebhookKind,
  payload: { type: WebhookEvent; data: Record<string, unknown> },
) {
  if (kind === 'standard') return JSON.stringify(payload)
  const text = `Quire: ${SUMMARIES[payload.type]?.(payload.data) ?? payload.type}`
  return JSON.stringify({ text })
}

interface Due {
  id: string
  webhook_id: string
  org_id: string
  message_id: string
  event: WebhookEvent
  payload: { type: WebhookEvent; timestamp: string; data: Record<string, unknown> }
  attempts: number
  url: string
  kind: WebhookKind
  secret_sealed: string
}

export function createWebhookSender(deps: {
  database: Database
  box: SecretBox
  allow: readonly string[]
  logger?: Logger
  mailer?: Mailer
  publicUrl?: string
  lookup?: LookupFunction
}) {
  const { pool } = deps.database
  const agent = createGuardedAgent({
    allow: [...deps.allow],
    lookup: deps.lookup,
    timeoutMs: TIMEOUT_MS,
  })

  async function post(row: Due) {
    const body = bodyOf(row.kind, row.payload)
    const at = new Date()
    const signature = new Signer(deps.box.open(row.secret_sealed).replace(/^whsec_/, '')).sign(
      row.message_id,
      at,
      body,
    )
    const started = performance.now()
    try {
      const res = await request(row.url, {
        method: 'POST',
        dispatcher: agent,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Quire-Webhooks/1',
          'webhook-id': row.message_id,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': signature,
        },
        body,
        headersTimeout: TIMEOUT_MS,
        bodyTimeout: TIMEOUT_MS,
      })
      await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined)
      return { status: res.statusCode, error: null, ms: Math.round(performance.now() - started) }
    } catch (error) {
      const message = (error as Error).message || 'The endpoint could not be reached'
      return {
        status: null,
        error: message.slice(0, 300),
        ms: Math.round(performance.now() - started),
      }
    }
  }

  async function disable(orgId: number, webhookId: number, url: string) {
    await writeAudit(
      pool,
      { orgId, actorId: null },
      { action: 'webhook.disabled', target: `webhook:${webhookId}`, name: new URL(url).host },
    )
    if (!deps.mailer) return
    const { rows } = await pool.query<{ email: string; first_name: string }>(
      `select email, first_name from users where org_id = $1 and role = 'admin' and status = 'active'`,
      [orgId],
    )
    for (const admin of rows)
      deps.mailer.send(
        compose({
          to: admin.email,
          subject: 'A webhook of Quire was disabled',
          greeting: admin.first_name ? `Hello ${admin.first_name},` : 'Hello,',
          paragraphs: [
            `Every delivery to ${url} has failed for a day, so Quire stopped sending to it.`,
            WEBHOOK_TEXTS.disabled,
          ],
          ...(deps.publicUrl
            ? { action: { label: 'Open the webhooks', url: `${deps.publicUrl}/settings/webhooks` } }
            : {}),
        }),
      )
  }

  /** One attempt of a claimed delivery, kept with its outcome. */
  async function attempt(row: Due) {
    const outcome = await post(row)
    const ok = outcome.status !== null && outcome.status >= 200 && outcome.status < 300
    const n = row.attempts + 1
    const retry = RETRY_DELAYS_S[n - 1]
    const disabled = await inTransaction(pool, async (client) => {
      await client.query(
        `insert into webhook_attempts (delivery_id, attempt, status_code, latency_ms, error)
         values ($1, $2, $3, $4, $5)`,
        [
          row.id,
          n,
          outcome.status,
          outcome.ms,
          ok ? null : (outcome.error ?? `HTTP ${outcome.status}`),
        ],
      )
      await client.query(
        `update webhook_deliveries
            set attempts = $2,
                status = case when $3 then 'delivered' when $4::int is null then 'failed' else 'pending' end,
                next_attempt_at = case when $3 or $4::int is null then null
                                       else now() + make_interval(secs => $4::int) end
          where id = $1`,
        [row.id, n, ok, ok ? null : (retry ?? null)],
      )
      const { rows } = await client.query<{ disable: boolean }>(
        `update webhooks
            set failing_since = case when $2 then null else coalesce(failing_since, now()) end,
                enabled = case when not $2 and failing_since <= now() - make_interval(secs => $3::int)
                               then false else enabled end,
                disabled_reason = case when not $2 and failing_since <= now() - make_interval(secs => $3::int)
                                       then $4 else disabled_reason end
          where id = $1
          returning (not enabled and disabled_reason = $4 and not $2) as disable`,
        [row.webhook_id, ok, DISABLE_AFTER_MS / 1000, WEBHOOK_TEXTS.disabled],
      )
      return Boolean(rows[0]?.disable) && !ok
    })
    if (disabled) await disable(Number(row.org_id), Number(row.webhook_id), row.url)
    return ok
  }

  /** Claims the deliveries that are due and sends them; how many were tried. */
  async function deliverDue(limit = 25) {
    const claimed = await inTransaction(pool, async (client) => {
      const { rows } = await client.query<Due>(
        `select d.id, d.webhook_id, d.org_id, d.message_id, d.event, d.payload, d.attempts,
                w.url, w.kind, w.secret_sealed
           from webhook_deliveries d join webhooks w on w.id = d.webhook_id
          where d.status = 'pending' and d.next_attempt_at <= now() and w.enabled
          order by d.next_attempt_at, d.id
          limit $1
          for update of d skip locked`,
        [limit],
      )
      if (rows.length)
        await client.query(
          `update webhook_deliveries set next_attempt_at = now() + make_interval(secs => $2)
            where id = any($1::bigint[])`,
          [rows.map((row) => row.id), LEASE_S],
        )
      return rows
    })
    await Promise.all(claimed.map((row) => attempt(row)))
    return claimed.length
  }

  /** Seconds until the next delivery is due (null: none pending), to schedule the next run. */
  async function nextDueInSeconds() {
    const { rows } = await pool.query<{ seconds: number | null }>(
      `select extract(epoch from min(d.next_attempt_at) - now())::float as seconds
         from webhook_deliveries d join webhooks w on w.id = d.webhook_id
        where d.status = 'pending' and w.enabled`,
    )
    const seconds = rows[0]?.seconds
    return seconds === null || seconds === undefined ? null : Math.max(0, seconds)
  }

  /** A job's run: what is due now, then what falls due within the run's window. */
  async function run() {
    const started = Date.now()
    for (;;) {
      while ((await deliverDue()) > 0) {}
      const next = await nextDueInSeconds()
      if (next === null || Date.now() - started + next * 1000 > RUN_WINDOW_MS) return
      await new Promise((resolve) => setTimeout(resolve, Math.max(100, next * 1000)))
    }
  }

  return { deliverDue, nextDueInSeconds, run, close: () => agent.close() }
}

export type WebhookSender = ReturnType<typeof createWebhookSender>

/** Daily: library answers whose review date passed in the last day are told (issue 41). */
export const STALE_WEBHOOK_JOB = 'webhooks.library-stale'
export const STALE_WEBHOOK_CRON = '0 6 * * *'

/**
 * Records `library.answer_stale` for each library answer whose review date passed within the
 * day before `now` (so each is told once, the day it goes stale), for organisations with an
 * endpoint that takes it.
 */
export async function emitStaleAnswers(database: Database) {
  const { rowCount } = await database.pool.query(
    `with stale as (
       select i.id, i.org_id, i.question,
              (i.last_reviewed_at + make_interval(days => coalesce(i.review_cycle_days, o.review_cycle_days))) as due_at
         from kb_qa_items i join organizations o on o.id = i.org_id
        where exists (select 1 from webhooks w
                       where w.org_id = i.org_id and w.enabled and 'library.answer_stale' = any(w.events)))
     insert into webhook_deliveries (webhook_id, org_id, message_id, event, payload, next_attempt_at)
     select w.id, s.org_id, 'msg_' || replace(gen_random_uuid()::text, '-', ''), 'library.answer_stale',
            jsonb_build_object('type', 'library.answer_stale', 'timestamp', now(),
              'data', jsonb_build_object('item_id', s.id, 'question', s.question, 'due_at', s.due_at)),
            now()
       from stale s join webhooks w on w.org_id = s.org_id and w.enabled
                                    and 'library.answer_stale' = any(w.events)
      where s.due_at <= now() and s.due_at > now() - interval '1 day'`,
  )
  return rowCount ?? 0
}
