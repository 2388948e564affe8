import { describe, expect, it } from 'vitest'
import { paths } from '../../../contract/paths.ts'
import { withTestApp } from '../support.ts'
import { get, insertUser, signIn } from './helpers.ts'

/**
 * Issue 37, S9: a call reads its session once, however many areas guard its path, and the
 * session look-up is a prepared statement (parsed and planned once per connection).
 */
const ctx = withTestApp()

describe('the session behind a call', () => {
  it('is looked up once per call, as a named prepared statement', async () => {
    const fixture = await insertUser(ctx.database, { role: 'admin' })
    const { access } = await signIn(ctx, fixture.email)
    const pool = ctx.database.pool
    const original = pool.query.bind(pool)
    const lookups: { named: boolean }[] = []
    // biome-ignore lint/suspicious/noExplicitAny: every overload of query passes through
    ;(pool as any).query = (config: any, ...rest: any[]) => {
      const text = typeof config === 'string' ? config : config?.text
      if (typeof text === 'string' && /from sessions s join users u/.test(text))
        lookups.push({ named: typeof config === 'object' && Boolean(config.name) })
      return original(config, ...rest)
    }
    try {
      for (const path of [
        paths.questionnaires.list,
        paths.questionnaires.team,
        paths.questionnaires.customers,
        paths.notifications.list,
      ]) {
        lookups.length = 0
        const res = await get(ctx, path, access)
        expect(res.status, path).toBe(200)
        expect(lookups, path).toEqual([{ named: true }])
      }
    } finally {
      // biome-ignore lint/suspicious/noExplicitAny: restoring the pool's own method
      ;(pool as any).query = original
    }
  })
})
