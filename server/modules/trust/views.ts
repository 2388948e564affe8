import type pg from 'pg'
import type { Logger } from '../../logger.ts'

/**
 * Views of the trust centre's public page (issue 40), counted in this node's memory and added to
 * `trust_page_views` (per organisation and UTC day) every few seconds by one upsert: a view costs
 * the page a map increment, never a database round trip. Counts a failed write could not add stay
 * for the next one; the analytics call flushes first, so this node's views are in its figures.
 */

/** How long counted views wait in memory before they are written. */
export const VIEWS_FLUSH_MS = 5_000
const DAY_MS = 86_400_000

export function createViewCounter(deps: {
  pool: pg.Pool
  logger: Logger
  now?: () => Date
  flushMs?: number
}) {
  const now = deps.now ?? (() => new Date())
  /** `${orgId}:${day number}` → views not yet written. */
  let pending = new Map<string, number>()
  let timer: NodeJS.Timeout | undefined
  let closed = false
  let writing: Promise<void> = Promise.resolve()

  const arm = () => {
    if (timer || closed || pending.size === 0) return
    timer = setTimeout(() => {
      timer = undefined
      void flush()
    }, deps.flushMs ?? VIEWS_FLUSH_MS)
    timer.unref()
  }

  /** One view of an organisation's page, now. */
  function count(orgId: number) {
    const key = `${orgId}:${Math.floor(now().getTime() / DAY_MS)}`
    pending.set(key, (pending.get(key) ?? 0) + 1)
    arm()
  }

  async function write() {
    if (pending.size === 0) return
    const batch = pending
    pending = new Map()
    const orgs: number[] = []
    const days: string[] = []
    const views: number[] = []
    for (const [key, n] of batch) {
      const [org, day] = key.split(':').map(Number) as [number, number]
      orgs.push(org)
      days.push(new Date(day * DAY_MS).toISOString().slice(0, 10))
      views.push(n)
    }
    try {
      // an organisation deleted meanwhile takes its views with it
      await deps.pool.query(
        `insert into trust_page_views (org_id, day, views)
         select v.org_id, v.day, v.views
           from unnest($1::bigint[], $2::date[], $3::int[]) as v(org_id, day, views)
          where exists (select 1 from organizations o where o.id = v.org_id)
         on conflict (org_id, day) do update set views = trust_page_views.views + excluded.views`,
        [orgs, days, views],
      )
    } catch (error) {
      for (const [key, n] of batch) pending.set(key, (pending.get(key) ?? 0) + n)
      deps.logger.warn({ err: error }, 'trust centre page views not written: kept for the next try')
    }
  }

  /** Writes what is counted (after any write under way); the next timer counts what follows. */
  function flush() {
    writing = writing.then(write).finally(arm)
    return writing
  }

  /** At the app's close: the last views written, no timer left behind. */
  async function close() {
    closed = true
    clearTimeout(timer)
    timer = undefined
    await flush()
  }

  return { count, flush, close }
}

export type ViewCounter = ReturnType<typeof createViewCounter>
