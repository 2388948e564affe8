import {
  type DeliveryChannel,
  DIGEST_KINDS,
  type NotificationKind,
} from '../../../contract/collaboration.ts'
import { notifyStatement } from '../../http/event-hub.ts'
import type { Queryable } from '../questionnaires/shared.ts'
import {
  DEFAULT_GATHERING,
  GATHERED_KINDS,
  lockWindows,
  type MailGathering,
  windowOf,
} from './gather.ts'
import type { Preferences } from './inbox.ts'

/** Something a person should hear of (issue 29). */
export interface NotifyEvent {
  orgId: number
  userId: number
  kind: NotificationKind
  /** A plain sentence, shown as text. */
  text: string
  /** Who did it: never told of their own doing. Null for the daily reminders. */
  actorId: number | null
  questionnaireId: number | null
  questionId: number | null
  /** One notification per person and key (the daily reminders). */
  dedupeKey?: string
  /**
   * What the actor wrote (a comment): quoted in the email under their name, never in its subject,
   * and after the sentence in the app (issue 37).
   */
  quote?: string
}

/**
 * Kinds whose email the area that raises them sends itself, by the person's preference (a trust
 * centre request: the admins' email with the request's reason): here they are told in the app
 * only, so that nobody gets the same news twice by email.
 */
export const OWN_EMAIL_KINDS: readonly NotificationKind[] = ['trust_request']

const MAX_TEXT = 1_000
const MAX_QUOTE = 5_000

/**
 * Writes notifications inside the caller's transaction: not to the actor, not to people who are
 * not active members of the organisation, and each by the person's choice for its kind. Email is
 * 'pending' (sent by `deliver()` after the commit), 'digest' (the daily email) or, for a mention
 * or comment past the first few of its window, 'held' for one digest at the window's end; the
 * person's live stream hears of it when the transaction commits, and never when it rolls back.
 */
export async function notify(
  client: Queryable,
  events: NotifyEvent[],
  gathering: MailGathering = DEFAULT_GATHERING,
) {
  const wanted = events.filter((event) => event.userId !== event.actorId)
  if (!wanted.length) return
  const { rows } = await client.query<{ id: string; org_id: string; prefs: Preferences }>(
    `select id, org_id, notification_preferences as prefs from users
      where id = any($1::bigint[]) and status = 'active'`,
    [[...new Set(wanted.map((event) => event.userId))]],
  )
  const people = new Map(rows.map((row) => [Number(row.id), row]))
  const channelOf = (event: NotifyEvent): DeliveryChannel | null => {
    const person = people.get(event.userId)
    if (!person || Number(person.org_id) !== event.orgId) return null
    return person.prefs?.[event.kind] ?? 'both'
  }
  const gathered = (event: NotifyEvent) =>
    GATHERED_KINDS.includes(event.kind) && ['both', 'email'].includes(channelOf(event) ?? 'off')
  await lockWindows(
    client,
    wanted.filter(gathered).map((event) => event.userId),
  )
  for (const event of wanted) {
    const channel = channelOf(event)
    if (!channel || channel === 'off') continue
    const inApp = channel !== 'email'
    let email: 'pending' | 'digest' | 'held' | null =
      channel === 'in_app' || OWN_EMAIL_KINDS.includes(event.kind)
        ? null
        : DIGEST_KINDS.includes(event.kind)
          ? 'digest'
          : 'pending'
    if (!inApp && !email) continue
    let sendAfter: Date | null = null
    if (gathered(event)) {
      const window = await windowOf(client, event.userId, gathering)
      sendAfter = window.sendAfter
      if (window.held) email = 'held'
    }
    const text = event.text.length > MAX_TEXT ? `${event.text.slice(0, MAX_TEXT - 1)}…` : event.text
    const quote = event.quote ? event.quote.slice(0, MAX_QUOTE) : null
    const inserted = await client.query<{ id: string }>(
      `insert into notifications (org_id, user_id, kind, text, actor_id, questionnaire_id,
                                  question_id, in_app, email, dedupe_key, quote, send_after)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
       on conflict (user_id, dedupe_key) do nothing
       returning id`,
      [
        event.orgId,
        event.userId,
        event.kind,
        text,
        event.actorId,
        event.questionnaireId,
        event.questionId,
        inApp,
        email,
        event.dedupeKey ?? null,
        quote,
        sendAfter,
      ],
    )
    const id = inserted.rows[0]?.id
    if (!id || !inApp) continue
    const [statement, values] = notifyStatement({
      key: `user:${event.userId}`,
      org: event.orgId,
      type: 'notification',
      data: { id: Number(id) },
    })
    await client.query(statement, values)
  }
}
