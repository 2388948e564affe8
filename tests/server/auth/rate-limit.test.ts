import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRateLimiter, type RateState } from '../../../server/auth/rate-limit.ts'
import { createTestDatabase } from '../../support/db.ts'

/**
 * The counters under concurrency (issue 14 fix 2, AS2): a hit counts and reads the window in one
 * step per key, so that parallel hits never miss each other, even when they fall in two buckets
 * (two rows) of the window.
 */
describe('rate limiter: hits on one key are atomic', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>
  let pool: pg.Pool
  beforeAll(async () => {
    database = await createTestDatabase()
    // room for every hit below to wait on a lock at once
    pool = new pg.Pool({ connectionString: database.url, max: 16 })
  })
  afterAll(async () => {
    await pool.end()
    await database.drop()
  })

  const rule = { limit: 5, windowMs: 15 * 60_000, bucketMs: 60_000 }

  async function waiting() {
    const { rows } = await pool.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`,
    )
    return rows[0]?.n ?? 0
  }

  async function until(condition: () => Promise<boolean>) {
    for (let i = 0; i < 500; i += 1) {
      if (await condition()) return
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    throw new Error('condition never held')
  }

  it('hits in two buckets that overlap in time still count each other', async () => {
    const boundary = Math.ceil(Date.UTC(2030, 0, 1, 9) / rule.bucketMs) * rule.bucketMs
    let at = boundary - 1
    const limiter = createRateLimiter(pool, () => new Date(at))
    const key = `login-fail:race-${boundary}@example.com`
    expect((await limiter.hit(key, rule)).count).toBe(1)

    // hold the first bucket's row: four more hits in that bucket start and wait on it
    const holder = await pool.connect()
    try {
      await holder.query('begin')
      await holder.query('select * from rate_limits where key = $1 for update', [key])
      const first = Array.from({ length: 4 }, () => limiter.hit(key, rule))
      await until(async () => (await waiting()) === 4)
      // meanwhile four hits land in the next bucket (another row)
      at = boundary
      const next = Array.from({ length: 4 }, () => limiter.hit(key, rule))
      let settled = false
      void Promise.allSettled(next).then(() => {
        settled = true
      })
      // either they finished (they did not wait for the first four) or they wait in turn
      await until(async () => settled || (await waiting()) === 8)
      await holder.query('commit')
      const states: RateState[] = await Promise.all([...first, ...next])
      // every hit saw every earlier one: the counts are 2..9, and only the first four pass
      expect(states.map((state) => state.count).sort((a, b) => a - b)).toEqual([
        2, 3, 4, 5, 6, 7, 8, 9,
      ])
      expect(states.filter((state) => !state.limited)).toHaveLength(rule.limit - 1)
    } finally {
      holder.release()
    }
  })

  it('a window sums its buckets and forgets those that left it', async () => {
    let at = Date.UTC(2030, 0, 2, 9)
    const limiter = createRateLimiter(pool, () => new Date(at))
    const key = 'addr:198.51.100.7'
    for (let i = 0; i < 3; i += 1) await limiter.hit(key, rule)
    at += 5 * 60_000
    expect(await limiter.hit(key, rule)).toMatchObject({ count: 4, limited: false })
    expect(await limiter.hit(key, rule)).toMatchObject({ count: 5, limited: false })
    const over = await limiter.hit(key, rule)
    expect(over).toMatchObject({ count: 6, limited: true })
    // the oldest bucket leaves the window in 10 minutes
    expect(over.retryAfterS).toBe(10 * 60)
    at += 10 * 60_000 + 1
    expect(await limiter.hit(key, rule)).toMatchObject({ count: 4, limited: false })
    await limiter.clear(key)
    expect(await limiter.hit(key, rule)).toMatchObject({ count: 1, limited: false })
  })
})
