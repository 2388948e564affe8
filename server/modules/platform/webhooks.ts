import { randomBytes } from 'node:crypto'
import {
  WEBHOOK_TEXTS,
  type Webhook,
  type WebhookCreate,
  type WebhookDelivery,
  type WebhookEvent,
  type WebhookKind,
} from '../../../contract/platform.ts'
import { writeAudit } from '../../db/audit.ts'
import { type Database, inTransaction } from '../../db/index.ts'
import { apiError } from '../../http/errors.ts'
import type { Queryable } from '../questionnaires/shared.ts'
import type { SecretBox } from '../sso/secrets.ts'

/**
 * Outgoing webhooks (issue 41): endpoints an organisation's admins register for events. An event
 * becomes one delivery per endpoint that takes it, its payload fixed when it happens, inside the
 * same transaction as the change it tells of; the sender (webhook-sender.ts) delivers it.
 */

const notFound = () => apiError(404, 'Not found.', { code: 'not_found' })

interface HookRow {
  id: string
  url: string
  events: WebhookEvent[]
  kind: WebhookKind
  description: string
  enabled: boolean
  disabled_reason: string | null
  failing_since: Date | null
  created_at: Date
}
const toHook = (row: HookRow): Webhook => ({
  id: Number(row.id),
  url: row.url,
  events: row.events,
  kind: row.kind,
  description: row.description,
  enabled: row.enabled,
  disabled_reason: row.disabled_reason,
  failing_since: row.failing_since?.toISOString() ?? null,
  created_at: row.created_at.toISOString(),
})
const COLUMNS =
  'id, url, events, kind, description, enabled, disabled_reason, failing_since, created_at'

/** Whether an endpoint's address may be used: https, or an address URL_FETCH_ALLOW names. */
export function webhookUrlAllowed(raw: string, allow: readonly string[]) {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return false
  }
  if (url.username || url.password) return false
  if (url.protocol === 'https:') return true
  const port = url.port || (url.protocol === 'http:' ? '80' : '')
  return url.protocol === 'http:' && allow.includes(`${url.hostname}:${port}`)
}

/**
 * Who wakes the sender on this node (the API's job queue), set by createWebhookService: an event
 * recorded here is then sent within a second or two rather than at the next minute's run.
 */
let wakeOnEmit: (() => void) | null = null
/** After the change's transaction has (most likely) committed; the minute's run catches the rest. */
const WAKE_DELAY_MS = 1_000

/**
 * Records an event for the organisation's endpoints that take it (call it in the transaction of
 * the change). Returns how many deliveries it made.
 */
export async function emitWebhook(
  client: Queryable,
  orgId: number,
  event: WebhookEvent,
  data: Record<string, unknown>,
) {
  const payload = { type: event, timestamp: new Date().toISOString(), data }
  const { rowCount } = await client.query(
    `insert into webhook_deliveries (webhook_id, org_id, message_id, event, payload, next_attempt_at)
     select id, org_id, 'msg_' || replace(gen_random_uuid()::text, '-', ''), $2, $3, now()
       from webhooks where org_id = $1 and enabled and $2 = any(events)`,
    [orgId, event, JSON.stringify(payload)],
  )
  if (rowCount && wakeOnEmit) setTimeout(wakeOnEmit, WAKE_DELAY_MS).unref()
  return rowCount ?? 0
}

export function createWebhookService(deps: {
  database: Database
  box: SecretBox
  /** URL_FETCH_ALLOW: host:port pairs a plain-http endpoint may use (tests on loopback). */
  allow: readonly string[]
  /** Asks the sender to run now (a job), after a change committed. */
  wake?: () => void
}) {
  const { pool } = deps.database
  if (deps.wake) wakeOnEmit = deps.wake

  async function create(orgId: number, userId: number, input: WebhookCreate) {
    if (!webhookUrlAllowed(input.url, deps.allow))
      throw apiError(400, WEBHOOK_TEXTS.https, { code: 'validation_error' })
    const secret = `whsec_${randomBytes(24).toString('base64')}`
    return inTransaction(pool, async (client) => {
      const { rows } = await client.query<HookRow>(
        `insert into webhooks (org_id, url, events, kind, description, secret_sealed, created_by)
         values ($1, $2, $3, $4, $5, $6, $7) returning ${COLUMNS}`,
        [
          orgId,
          input.url,
          [...new Set(input.events)],
          input.kind ?? 'standard',
          input.description?.trim() ?? '',
          deps.box.seal(secret),
          userId,
        ],
      )
      const hook = toHook(rows[0] as HookRow)
      await writeAudit(
        client,
        { orgId, actorId: userId },
        {
          action: 'webhook.created',
          target: `webhook:${hook.id}`,
          name: new URL(hook.url).host,
          detail: { events: hook.events, kind: hook.kind },
        },
      )
      return { ...hook, secret }
    })
  }

  async function list(orgId: number): Promise<Webhook[]> {
    const { rows } = await pool.query<HookRow>(
      `select ${COLUMNS} from webhooks where org_id = $1 order by created_at desc, id desc`,
      [orgId],
    )
    return rows.map(toHook)
  }

  async function remove(orgId: number, userId: number, id: number) {
    await inTransaction(pool, async (client) => {
      const { rows } = await client.query<{ url: string }>(
        'delete from webhooks where id = $1 and org_id = $2 returning url',
        [id, orgId],
      )
      if (!rows[0]) throw notFound()
      await writeAudit(
        client,
        { orgId, actorId: userId },
        { action: 'webhook.deleted', target: `webhook:${id}`, name: new URL(rows[0].url).host },
      )
    })
    return { status: 'deleted' as const }
  }

  async function enable(orgId: number, id: number) {
    const { rows } = await pool.query<HookRow>(
      `update webhooks set enabled = true, disabled_reason = null, failing_since = null
        where id = $1 and org_id = $2 returning ${COLUMNS}`,
      [id, orgId],
    )
    if (!rows[0]) throw notFound()
    return toHook(rows[0])
  }

  async function deliveries(orgId: number, id: number): Promise<WebhookDelivery[]> {
    const hook = await pool.query('select 1 from webhooks where id = $1 and org_id = $2', [
      id,
      orgId,
    ])
    if (!hook.rowCount) throw notFound()
    const { rows } = await pool.query<{
      id: string
      message_id: string
      event: WebhookEvent
      status: WebhookDelivery['status']
      next_attempt_at: Date | null
      created_at: Date
      payload: Record<string, unknown>
      attempts:
        | {
            attempt: number
            status_code: number | null
            latency_ms: number | null
            error: string | null
            at: string
          }[]
        | null
    }>(
      `select d.id, d.message_id, d.event, d.status, d.next_attempt_at, d.created_at, d.payload,
              (select json_agg(json_build_object('attempt', a.attempt, 'status_code', a.status_code,
                        'latency_ms', a.latency_ms, 'error', a.error, 'at', a.created_at)
                        order by a.attempt)
                 from webhook_attempts a where a.delivery_id = d.id) as attempts
         from webhook_deliveries d
        where d.webhook_id = $1 and d.org_id = $2
        order by d.created_at desc, d.id desc limit 100`,
      [id, orgId],
    )
    return rows.map((row) => ({
      id: Number(row.id),
      message_id: row.message_id,
      event: row.event,
      status: row.status,
      attempts: (row.attempts ?? []).map((a) => ({ ...a, at: new Date(a.at).toISOString() })),
      next_attempt_at:
        row.status === 'pending' ? (row.next_attempt_at?.toISOString() ?? null) : null,
      created_at: row.created_at.toISOString(),
      payload: row.payload,
    }))
  }

  /** Sends a delivery again from the log (delivered or failed alike), with its message id. */
  async function replay(orgId: number, id: number, deliveryId: number) {
    const { rowCount } = await pool.query(
      `update webhook_deliveries set status = 'pending', next_attempt_at = now()
        where id = $1 and webhook_id = $2 and org_id = $3`,
      [deliveryId, id, orgId],
    )
    if (!rowCount) throw notFound()
    deps.wake?.()
    return { status: 'queued' as const }
  }

  return { create, list, remove, enable, deliveries, replay }
}

export type WebhookService = ReturnType<typeof createWebhookService>
