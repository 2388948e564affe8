import {
  COLLABORATION_TEXTS,
  type DeliveryChannel,
  NOTIFICATION_KINDS,
  type Notification,
  type NotificationKind,
  type NotificationList,
  type NotificationPreferences,
} from '../../../contract/collaboration.ts'
import { ERROR_CODES } from '../../../contract/errors.ts'
import type { Database } from '../../db/index.ts'
import { inTransaction } from '../../db/index.ts'
import { personOf } from '../../db/people.ts'
import { apiError, notFound } from '../../http/errors.ts'
import { inAppText } from './gather.ts'
import { kindsOf, readUnsubscribeToken, type UnsubscribeScope } from './tokens.ts'

export type Preferences = Partial<Record<NotificationKind, DeliveryChannel>>

/** Every kind's channel: a kind not set is told both ways. */
export const channelsOf = (stored: Preferences | null | undefined) =>
  Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, stored?.[kind] ?? 'both'])) as Record<
    NotificationKind,
    DeliveryChannel
  >

/** What unsubscribing from email leaves of a channel: the app keeps telling, email stops. */
const withoutEmail = (channel: DeliveryChannel): DeliveryChannel =>
  channel === 'both' ? 'in_app' : channel === 'email' ? 'off' : channel

interface NotificationDb {
  id: string
  kind: NotificationKind
  text: string
  quote: string | null
  questionnaire_id: string | null
  question_id: string | null
  created_at: Date
  read_at: Date | null
  user_id: string | null
  first_name: string | null
  last_name: string | null
  email: string | null
}

const SELECT = `select n.id, n.kind, n.text, n.quote, n.questionnaire_id, n.question_id, n.created_at, n.read_at,
                       a.id as user_id, a.first_name, a.last_name, a.email
                  from notifications n left join users a on a.id = n.actor_id`

const notificationOf = (row: NotificationDb): Notification => ({
  id: Number(row.id),
  kind: row.kind,
  text: inAppText(row.text, row.quote),
  actor: personOf(row),
  questionnaire_id: row.questionnaire_id ? Number(row.questionnaire_id) : null,
  question_id: row.question_id ? Number(row.question_id) : null,
  created_at: row.created_at.toISOString(),
  read_at: row.read_at?.toISOString() ?? null,
})

/**
 * A person's notifications in the app (issue 29): the list with the unread count, marking read,
 * how each kind reaches them, and unsubscribing from email by a mailed link.
 */
export function createInbox(deps: { database: Database; secret: string }) {
  const { pool } = deps.database

  async function unread(orgId: number, userId: number) {
    const { rows } = await pool.query<{ count: string }>(
      `select count(*) from notifications
        where org_id = $1 and user_id = $2 and in_app and read_at is null`,
      [orgId, userId],
    )
    return Number(rows[0]?.count ?? 0)
  }

  async function list(
    orgId: number,
    userId: number,
    options: { before?: number; limit: number; unread?: boolean },
  ): Promise<NotificationList> {
    const { rows } = await pool.query<NotificationDb>(
      `${SELECT}
        where n.org_id = $1 and n.user_id = $2 and n.in_app and ($3::bigint is null or n.id < $3)
          and (not $5::boolean or n.read_at is null)
        order by n.id desc limit $4`,
      [orgId, userId, options.before ?? null, options.limit, options.unread ?? false],
    )
    return { unread: await unread(orgId, userId), results: rows.map(notificationOf) }
  }

  /** One of the person's notifications shown in the app, or null (the live stream reads it). */
  async function one(orgId: number, userId: number, id: number) {
    const { rows } = await pool.query<NotificationDb>(
      `${SELECT} where n.org_id = $1 and n.user_id = $2 and n.id = $3 and n.in_app`,
      [orgId, userId, id],
    )
    return rows[0] ? notificationOf(rows[0]) : null
  }

  async function read(orgId: number, userId: number, which: { ids: number[] } | { all: true }) {
    const ids = 'ids' in which ? which.ids : null
    const updated = await pool.query(
      `update notifications set read_at = now()
        where org_id = $1 and user_id = $2 and read_at is null
          and ($3::bigint[] is null or id = any($3::bigint[]))`,
      [orgId, userId, ids],
    )
    return { read: updated.rowCount ?? 0, unread: await unread(orgId, userId) }
  }

  async function preferences(orgId: number, userId: number): Promise<NotificationPreferences> {
    const { rows } = await pool.query<{ prefs: Preferences }>(
      `select notification_preferences as prefs from users where org_id = $1 and id = $2`,
      [orgId, userId],
    )
    if (!rows[0]) throw notFound()
    return { preferences: channelsOf(rows[0].prefs) }
  }

  async function updatePreferences(orgId: number, userId: number, changes: Preferences) {
    await pool.query(
      `update users set notification_preferences = notification_preferences || $3::jsonb
        where org_id = $1 and id = $2`,
      [orgId, userId, JSON.stringify(changes)],
    )
    await dropUnwantedEmail(pool, userId)
    return preferences(orgId, userId)
  }

  /** Email not yet sent of kinds now told only in the app is not sent. */
  async function dropUnwantedEmail(client: Pick<typeof pool, 'query'>, userId: number) {
    await client.query(
      `update notifications n set email = null
         from users u
        where u.id = n.user_id and n.user_id = $1 and n.email in ('pending', 'digest', 'held')
          and coalesce(u.notification_preferences ->> n.kind, 'both') in ('in_app', 'off')`,
      [userId],
    )
  }

  function check(token: string): { valid: boolean; kind: UnsubscribeScope | null } {
    const found = readUnsubscribeToken(deps.secret, token)
    return { valid: Boolean(found), kind: found?.scope ?? null }
  }

  const invalid = () =>
    apiError(400, COLLABORATION_TEXTS.unsubscribeInvalid, { code: ERROR_CODES.validation })

  /** The mailed link's kinds are no longer emailed; the app still tells them as chosen. */
  async function unsubscribe(token: string) {
    const found = readUnsubscribeToken(deps.secret, token)
    if (!found) throw invalid()
    await inTransaction(pool, async (client) => {
      const { rows } = await client.query<{ prefs: Preferences }>(
        `select notification_preferences as prefs from users where id = $1 for update`,
        [found.userId],
      )
      if (!rows[0]) throw invalid()
      const channels = channelsOf(rows[0].prefs)
      const changes = Object.fromEntries(
        kindsOf(found.scope).map((kind) => [kind, withoutEmail(channels[kind])]),
      )
      await client.query(
        `update users set notification_preferences = notification_preferences || $2::jsonb where id = $1`,
        [found.userId, JSON.stringify(changes)],
      )
      await dropUnwantedEmail(client, found.userId)
    })
    return { message: COLLABORATION_TEXTS.unsubscribed }
  }

  return { list, one, unread, read, preferences, updatePreferences, check, unsubscribe }
}
