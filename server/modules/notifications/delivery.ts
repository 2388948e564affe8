import { apiPath, paths } from '../../../contract/paths.ts'
import type { Database } from '../../db/index.ts'
import type { Logger } from '../../logger.ts'
import type { Mailer } from '../../mail/index.ts'
import { type NotificationLinks, notificationMail, workDueMail } from '../../mail/messages.ts'
import { type UnsubscribeScope, unsubscribeToken } from './tokens.ts'

/** Rows claimed per statement: a long queue is sent in several rounds. */
const BATCH = 200
/** At most this many reminders are listed in one daily email. */
const LISTED = 50

interface ClaimedDb {
  id: string
  user_id: string
  kind: UnsubscribeScope
  text: string
  questionnaire_id: string | null
  question_id: string | null
  address: string
  first_name: string
  active: boolean
}

/**
 * Notification email (issue 29). Rows wait in the table as 'pending' (sent as they happen) or
 * 'digest' (the daily email); a sender claims them by turning them 'sent' in the statement that
 * reads them, with `skip locked`, so two nodes never send the same one, and a row of a
 * transaction that rolled back was never there to send.
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

  async function claim(state: 'pending' | 'digest') {
    const { rows } = await pool.query<ClaimedDb>(
      `with claimed as (
         select id from notifications where email = $1 order by id limit $2 for update skip locked)
       update notifications n set email = 'sent'
         from claimed, users u
        where n.id = claimed.id and u.id = n.user_id
        returning n.id, n.user_id, n.kind, n.text, n.questionnaire_id, n.question_id,
                  u.email as address, u.first_name, u.status = 'active' as active`,
      [state, BATCH],
    )
    return rows.sort((a, b) => Number(a.id) - Number(b.id))
  }

  /** Sends every email owed as it happens; called after the caller's transaction commits. */
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
              links: linksOf(Number(row.user_id), row.kind, row),
            }),
          )
        }
        if (rows.length < BATCH) return
      }
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
