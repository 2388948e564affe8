import type { NotificationKind } from '../../../contract/collaboration.ts'
import type { Queryable } from '../questionnaires/shared.ts'

/**
 * Mention and comment emails in a flood (issue 37, S2). A person's first email of these kinds
 * opens a window of `digestWindowMs`; the first `digestAfter` emails of the window go as they
 * come, the others are 'held' and go out in one digest when the window ends. The window lives on
 * the rows (`send_after` is its end), so every node agrees on it, and whichever node comes first
 * after the end sends the digest (claimed with `skip locked`: never twice).
 */

export interface MailGathering {
  /** Emails a person gets as they come in one window; past them, one digest at its end. */
  digestAfter: number
  /** How long a window lasts, in ms. */
  digestWindowMs: number
}

export const DEFAULT_GATHERING: MailGathering = { digestAfter: 3, digestWindowMs: 10 * 60_000 }

/** The kinds that carry what someone wrote: gathered in a flood, quoted in the email. */
export const GATHERED_KINDS: readonly NotificationKind[] = ['mentioned', 'changes_requested']

/** The class of the advisory locks that take a person's mail window in turn (two-key form). */
const MAIL_WINDOW_LOCK_CLASS = 7233

/**
 * Takes the mail windows of these people, in the caller's transaction and in order of their ids
 * (two transactions naming the same people never wait on each other in a circle): each one's
 * next email then counts every email committed before it.
 */
export async function lockWindows(client: Queryable, userIds: number[]) {
  for (const userId of [...new Set(userIds)].sort((a, b) => a - b))
    await client.query('select pg_advisory_xact_lock($1, $2::int)', [
      MAIL_WINDOW_LOCK_CLASS,
      userId % 2_147_483_647,
    ])
}

/**
 * The window of a person's next mention or comment email (their window lock taken): its end,
 * and whether this email waits for the digest at that end.
 */
export async function windowOf(client: Queryable, userId: number, gathering: MailGathering) {
  const { rows } = await client.query<{ ends: Date | null; sent: string }>(
    `with open as (
       select max(send_after) as ends from notifications
        where user_id = $1 and send_after > now() and email is not null)
     select open.ends,
            (select count(*) from notifications
              where user_id = $1 and send_after = open.ends and email in ('pending', 'sent')) as sent
       from open`,
    [userId],
  )
  const open = rows[0]
  if (!open?.ends) {
    const opened = await client.query<{ ends: Date }>(
      `select now() + make_interval(secs => $1::double precision / 1000) as ends`,
      [gathering.digestWindowMs],
    )
    return { sendAfter: opened.rows[0]?.ends ?? new Date(), held: false }
  }
  return { sendAfter: open.ends, held: Number(open.sent) >= gathering.digestAfter }
}

/** A notification in the app: its sentence, then the start of the words it quotes. */
const EXCERPT = 140
export const inAppText = (text: string, quote: string | null) =>
  quote ? `${text}: “${quote.length > EXCERPT ? `${quote.slice(0, EXCERPT - 1)}…` : quote}”` : text
