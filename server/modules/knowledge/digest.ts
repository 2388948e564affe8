import type { Database } from '../../db/index.ts'
import type { Logger } from '../../logger.ts'
import type { Mailer } from '../../mail/index.ts'
import { reviewDueMail } from '../../mail/messages.ts'
import { FRESHNESS_SQL } from './items.ts'
import { QA_DUE_SQL } from './shared.ts'

/** At most this many answers are listed in one email; the rest are counted. */
const LISTED = 20

/**
 * The weekly review email (issue 28): each active owner of library answers that are due or stale
 * gets one message listing them, soonest due first, with a link to the review queue. Organisations
 * that turned the email off in Settings get none. Returns how many messages were queued.
 */
export function createReviewDigest(deps: {
  database: Database
  mailer: Mailer
  publicUrl: string
  logger: Logger
}) {
  const { pool } = deps.database

  async function send() {
    const { rows } = await pool.query<{
      owner_id: string
      email: string
      first_name: string
      organization: string
      question: string
      stale: boolean
      due_at: Date
    }>(
      `select i.owner_id, u.email, u.first_name, o.name as organization, i.question,
              ${FRESHNESS_SQL.stale} as stale, ${QA_DUE_SQL} as due_at
         from kb_qa_items i
         join organizations o on o.id = i.org_id
         join users u on u.id = i.owner_id and u.org_id = i.org_id and u.status = 'active'
        where o.review_digest and (${FRESHNESS_SQL.stale} or ${FRESHNESS_SQL.due})
        order by i.owner_id, ${QA_DUE_SQL}, i.id`,
    )
    const byOwner = new Map<string, typeof rows>()
    for (const row of rows) byOwner.set(row.owner_id, [...(byOwner.get(row.owner_id) ?? []), row])
    for (const items of byOwner.values()) {
      const first = items[0] as (typeof items)[number]
      deps.mailer.send(
        reviewDueMail(
          { publicUrl: deps.publicUrl },
          {
            to: first.email,
            firstName: first.first_name,
            organization: first.organization,
            items: items.slice(0, LISTED).map((item) => ({
              question: item.question,
              freshness: item.stale ? 'stale' : 'due',
              dueAt: item.due_at,
            })),
            more: Math.max(0, items.length - LISTED),
          },
        ),
      )
    }
    deps.logger.info({ owners: byOwner.size, answers: rows.length }, 'library review emails')
    return byOwner.size
  }

  return { send }
}
