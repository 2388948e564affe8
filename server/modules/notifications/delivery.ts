import type { NotificationKind } from '../../../contract/collaboration.ts'
import { apiPath, paths } from '../../../contract/paths.ts'
import { type Database, inTransaction } from '../../db/index.ts'
import type { Logger } from '../../logger.ts'
import type { Mailer } from '../../mail/index.ts'
import type { Quote } from '../../mail/messages.ts'
import {
  gatheredMail,
  type NotificationLinks,
  notificationMail,
  workDueMail,
} from '../../mail/notifications.ts'
import type { Queryable } from '../questionnaires/shared.ts'
import { GATHERED_KINDS, lockWindows } from './gather.ts'
import { type UnsubscribeScope, unsubscribeToken } from './tokens.ts'

/** Rows claimed per statement: a long queue is sent in several rounds. */
const BATCH = 200
/** At most this many reminders (or gathered mentions) are listed in one email. */
const LISTED = 50
/** A person's held emails claimed at once for their digest (a bound, not a batch). */
const HELD_MAX = 10_000
/** A timer set for a window's end fires this much later, so that the end has surely passed. */
const LATE_MS = 50

interface ClaimedDb {
  id: string
  user_id: string
  kind: NotificationKind
  text: string
  quote: string | null
  questionnaire_id: string | null
  question_id: string | null
  address: string
  first_name: string
  active: boolean
  actor: string | null
  questionnaire: string | null
}

/** What the subject of an email that quotes someone says: who, and on which questionnaire. */
const SUBJECTS: Partial<Record<NotificationKind, (who: string, where: string) => string>> = {
  mentioned: (who, where) => `${who} mentioned you on ${where}`,
  changes_requested: (who, where) => `${who} asked for changes on ${where}`,
}

/** The subject of a mention or comment email: never the words someone wrote (issue 37, S4). */
const subjectOf = (row: ClaimedDb) =>
  GATHERED_KINDS.includes(row.kind)
    ? SUBJECTS[row.kind]?.(row.actor || 'Someone', row.questionnaire ?? 'Quire')
    : undefined

const quoteOf = (row: ClaimedDb): Quote | null =>
  row.quote ? { author: row.actor || 'Someone', words: row.quote } : null

/**
 * Notification email (issue 29). Rows wait in the table as 'pending' (sent as they happen),
 * 'digest' (the daily email) or 'held' (a flood of mentions, gathered into one email at the end of
 * its window, issue 37); a sender claims them by turning them 'sent' in the statement that reads
 * them, with `skip locked`, so two nodes never send the same one, and a row of a transaction that
 * rolled back was never there to send.
 */
export function createDelivery(deps: {
  database: Database
  logger: Logger
  mailer?: Mailer
  publicUrl?: string
  secret: string
}) {
  const { pool } = deps.database
  const target = { publicUrl: deps.publicUrl ?? '' }

  function linksOf(userId: number, scope: UnsubscribeScope, row?: ClaimedDb): NotificationLinks {
    const token = unsubscribeToken(deps.secret, userId, scope)
    const oneClick = new URL(
      apiPath(paths.notifications.unsubscribe).replace(/^\/+/, ''),
      `${target.publicUrl.replace(/\/+$/, '')}/`,
    )
    oneClick.searchParams.set('token', token)
    return {
      questionnaireId: row?.questionnaire_id ? Number(row.questionnaire_id) : null,
      questionId: row?.question_id ? Number(row.question_id) : null,
      unsubscribeToken: token,
      oneClickUrl: oneClick.toString(),
    }
  }

  /**
   * Claims rows in a state ('held' ones once their window has ended, of one person), with who did
   * it and where.
   */
  async function claim(
    state: 'pending' | 'digest' | 'held',
    client: Queryable = pool,
    userId: number | null = null,
  ) {
    const { rows } = await client.query<ClaimedDb>(
      `with claimed as (
         select id from notifications
          where email = $1 and ($1 <> 'held' or send_after <= now())
            and ($3::bigint is null or user_id = $3)
          order by id limit $2 for update skip locked)
       update notifications n set email = 'sent'
         from claimed, users u
        where n.id = claimed.id and u.id = n.user_id
        returning n.id, n.user_id, n.kind, n.text, n.quote, n.questionnaire_id, n.question_id,
                  u.email as address, u.first_name, u.status = 'active' as active,
                  (select coalesce(nullif(trim(a.first_name || ' ' || a.last_name), ''), a.email)
                     from users a where a.id = n.actor_id) as actor,
                  (select q.name from questionnaires q where q.id = n.questionnaire_id)
                    as questionnaire`,
      [state, userId === null ? BATCH : HELD_MAX, userId],
    )
    return rows.sort((a, b) => Number(a.id) - Number(b.id))
  }

  /**
   * The mentions and comments held past their window's end: one digest per person. Each person's
   * rows are claimed together under their window lock, so that two nodes never split one digest.
   */
  async function sendGathered(mailer: Mailer) {
    const due = await pool.query<{ user_id: string }>(
      `select distinct user_id from notifications where email = 'held' and send_after <= now()`,
    )
    for (const { user_id: userId } of due.rows) {
      const claimed = await inTransaction(pool, async (client) => {
        await lockWindows(client, [Number(userId)])
        return claim('held', client, Number(userId))
      })
      const rows = claimed.filter((row) => row.active)
      const first = rows[0]
      if (!first) continue
      const kinds = [...new Set(rows.map((row) => row.kind))]
      const scope: UnsubscribeScope = kinds.length === 1 ? first.kind : 'all'
      mailer.send(
        gatheredMail(target, {
          to: first.address,
          firstName: first.first_name,
          items: rows.slice(0, LISTED).map((row) => ({
            text: row.text,
            quote: quoteOf(row),
            links: linksOf(Number(userId), row.kind, row),
          })),
          more: Math.max(rows.length - LISTED, 0),
          links: linksOf(Number(userId), scope),
        }),
      )
    }
  }

  let timer: NodeJS.Timeout | undefined
  let timerAt = Number.POSITIVE_INFINITY

  /**
   * Wakes this node when the next held window ends (by the database's clock). Every node that
   * delivers sets one, and any delivery after the end sends what is due: a node that dies with a
   * timer set leaves the digest to the next delivery of any node, or to the daily job.
   */
  async function wakeForHeld() {
    const { rows } = await pool.query<{ wait: number | null }>(
      `select extract(epoch from min(send_after) - now()) * 1000 as wait
         from notifications where email = 'held'`,
    )
    const wait = rows[0]?.wait
    if (wait === null || wait === undefined) return
    const at = Date.now() + Math.max(Number(wait), 0) + LATE_MS
    if (timer && timerAt <= at) return
    clearTimeout(timer)
    timerAt = at
    timer = setTimeout(() => {
      timer = undefined
      timerAt = Number.POSITIVE_INFINITY
      void deliver()
    }, at - Date.now())
    timer.unref()
  }

  /**
   * Sends every email owed as it happens, and the digests of held mentions whose window has
   * ended; called after the caller's transaction commits.
   */
  async function deliver() {
    const { mailer } = deps
    if (!mailer || !deps.publicUrl) return
    try {
      for (;;) {
        const rows = await claim('pending')
        for (const row of rows.filter((one) => one.active)) {
          mailer.send(
            notificationMail(target, {
              to: row.address,
              firstName: row.first_name,
              text: row.text,
              subject: subjectOf(row),
              quote: quoteOf(row),
              links: linksOf(Number(row.user_id), row.kind as UnsubscribeScope, row),
            }),
          )
        }
        if (rows.length < BATCH) break
      }
      await sendGathered(mailer)
      await wakeForHeld()
    } catch (error) {
      deps.logger.error({ err: error }, 'notification email not sent')
    }
  }

  /** One email per person listing every reminder waiting for the daily email; how many sent. */
  async function sendDigests() {
    const { mailer } = deps
    if (!mailer || !deps.publicUrl) return 0
    const byUser = new Map<string, ClaimedDb[]>()
    for (;;) {
      const rows = await claim('digest')
      for (const row of rows.filter((one) => one.active))
        byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row])
      if (rows.length < BATCH) break
    }
    for (const [userId, rows] of byUser) {
      const first = rows[0] as ClaimedDb
      mailer.send(
        workDueMail(target, {
          to: first.address,
          firstName: first.first_name,
          items: rows.slice(0, LISTED).map((row) => ({
            text: row.text,
            links: linksOf(Number(userId), 'digest', row),
          })),
          links: linksOf(Number(userId), 'digest'),
        }),
      )
    }
    return byUser.size
  }

  return { deliver, sendDigests }
}
