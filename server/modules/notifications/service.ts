import type { Database } from '../../db/index.ts'
import { inTransaction } from '../../db/index.ts'
import type { Logger } from '../../logger.ts'
import type { Mailer } from '../../mail/index.ts'
import type { Queryable } from '../questionnaires/shared.ts'
import { createDelivery } from './delivery.ts'
import { dayOf, remindersOf } from './due.ts'
import { DEFAULT_GATHERING, type MailGathering } from './gather.ts'
import { createInbox } from './inbox.ts'
import { type NotifyEvent, notify } from './notify.ts'

export type { NotifyEvent } from './notify.ts'

/**
 * Notifications (issue 29), composed: `notify` inside a caller's transaction, `deliver` after its
 * commit, the daily `digest` of due and overdue work, and a person's inbox, preferences and
 * unsubscribe links.
 */
export function createNotificationService(deps: {
  database: Database
  logger: Logger
  mailer?: Mailer
  publicUrl?: string
  /** Signs unsubscribe links (the server's JWT secret). */
  secret: string
  now?: () => Date
  /** When a flood of mention and comment emails becomes one digest (issue 37). */
  gathering?: Partial<MailGathering>
}) {
  const now = deps.now ?? (() => new Date())
  const gathering: MailGathering = {
    digestAfter: deps.gathering?.digestAfter ?? DEFAULT_GATHERING.digestAfter,
    digestWindowMs: deps.gathering?.digestWindowMs ?? DEFAULT_GATHERING.digestWindowMs,
  }
  const delivery = createDelivery(deps)
  const inbox = createInbox(deps)

  /** The daily job: the day's reminders are written (once a day), then each person's email. */
  async function digest(at: Date = now()) {
    const day = dayOf(at)
    const reminders = await inTransaction(deps.database.pool, async (client) => {
      const events = await remindersOf(client, day)
      await notify(client, events, gathering)
      return events.length
    })
    // anything owed as it happens that a crash kept from being sent goes too
    await delivery.deliver()
    const people = await delivery.sendDigests()
    deps.logger.info({ day, reminders, people }, 'work reminders')
    return { reminders, people }
  }

  return {
    notify: (client: Queryable, events: NotifyEvent[]) => notify(client, events, gathering),
    deliver: delivery.deliver,
    digest,
    list: inbox.list,
    one: inbox.one,
    unread: inbox.unread,
    read: inbox.read,
    preferences: inbox.preferences,
    updatePreferences: inbox.updatePreferences,
    checkUnsubscribe: inbox.check,
    unsubscribe: inbox.unsubscribe,
  }
}

export type NotificationService = ReturnType<typeof createNotificationService>
