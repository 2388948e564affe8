import type pg from 'pg'
import { inTransaction } from '../db/index.ts'
import type { Clock } from './tokens.ts'

/**
 * Sliding-window counters kept in PostgreSQL, so that a limit holds across API nodes. A window is
 * the sum of the fixed buckets that started inside it: one row per key and bucket, bumped with an
 * upsert that also sums the window.
 *
 * Hits on one key take turns (a transaction-scoped advisory lock on the key), so that each one
 * counts every earlier hit: the upsert alone serialises hits on one bucket row, but its statement
 * reads the other buckets from the snapshot it started with, and two hits that straddle a bucket
 * boundary could each miss the other. Of N parallel hits exactly `limit` pass (AS2).
 */

export interface RateRule {
  limit: number
  windowMs: number
  /** Granularity of the sliding window; a fifteenth of the window unless given. */
  bucketMs?: number
}

export interface RateState {
  /** Hits in the window, including this one for `hit`. */
  count: number
  /** True when the count exceeds the limit (for `hit`) or has reached it (for `peek`). */
  limited: boolean
  /** Seconds until the oldest counted bucket leaves the window. */
  retryAfterS: number
}

export interface RateLimiter {
  /**
   * Counts one hit (or `weight` of them: the people one comment mentions; a negative weight gives
   * back what a refused call took) and says whether this hit went over the limit.
   */
  hit(key: string, rule: RateRule, weight?: number): Promise<RateState>
  /** Reads the window without counting: limited once the limit is reached. */
  peek(key: string, rule: RateRule): Promise<RateState>
  clear(key: string): Promise<void>
}

/** Rows older than this are never read again; the longest window is an hour. */
const KEEP_MS = 24 * 60 * 60 * 1000
const SWEEP_EVERY_MS = 10 * 60 * 1000
/** The class of the advisory locks on rate-limit keys (two-key form; generation uses 7231). */
const RATE_LIMIT_LOCK_CLASS = 7232

export function createRateLimiter(pool: pg.Pool, now: Clock): RateLimiter {
  let lastSweep = 0

  const bucketOf = (rule: RateRule) => rule.bucketMs ?? Math.max(Math.floor(rule.windowMs / 15), 1)

  function state(rule: RateRule, count: number, oldest: Date | null, at: number, hit: boolean) {
    const end = (oldest?.getTime() ?? at) + rule.windowMs
    return {
      count,
      limited: hit ? count > rule.limit : count >= rule.limit,
      retryAfterS: Math.max(Math.ceil((end - at) / 1000), 1),
    }
  }

  function sweep(at: number) {
    if (at - lastSweep < SWEEP_EVERY_MS) return
    lastSweep = at
    // housekeeping off the request path; a failure only leaves old rows for the next sweep
    pool
      .query('delete from rate_limits where window_start < $1', [new Date(at - KEEP_MS)])
      .catch(() => {})
  }

  return {
    async hit(key, rule, weight = 1) {
      const at = now().getTime()
      const bucketMs = bucketOf(rule)
      const bucket = new Date(Math.floor(at / bucketMs) * bucketMs)
      const since = new Date(at - rule.windowMs)
      const row = await inTransaction(pool, async (client) => {
        // one hit at a time per key: the statement below starts after the previous hit committed
        await client.query('select pg_advisory_xact_lock($1, hashtext($2))', [
          RATE_LIMIT_LOCK_CLASS,
          key,
        ])
        // the CTE's upsert is invisible to the outer select (one snapshot): add its count apart
        const result = await client.query<{ total: string; oldest: Date | null }>(
          `with bumped as (
             insert into rate_limits (key, window_start, count) values ($1, $2, $4)
             on conflict (key, window_start) do update set count = rate_limits.count + $4
             returning count
           )
           select (select count from bumped) + coalesce(sum(count), 0) as total,
                  least(min(window_start), $2) as oldest
             from rate_limits
            where key = $1 and window_start > $3 and window_start <> $2`,
          [key, bucket, since, weight],
        )
        return result.rows[0]
      })
      sweep(at)
      return state(rule, Number(row?.total ?? weight), row?.oldest ?? bucket, at, true)
    },
    async peek(key, rule) {
      const at = now().getTime()
      const since = new Date(at - rule.windowMs)
      const result = await pool.query<{ total: string | null; oldest: Date | null }>(
        `select sum(count) as total, min(window_start) as oldest
           from rate_limits where key = $1 and window_start > $2`,
        [key, since],
      )
      const row = result.rows[0]
      return state(rule, Number(row?.total ?? 0), row?.oldest ?? null, at, false)
    },
    async clear(key) {
      await pool.query('delete from rate_limits where key = $1', [key])
    },
  }
}
