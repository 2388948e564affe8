import { describe, expect, it } from 'vitest'
import { apiPath } from '../../contract/paths.ts'
import { authGuardRuns } from '../../server/auth/middleware.ts'
import { insertUser, signIn } from './auth/helpers.ts'
import { withTestApp } from './support.ts'

/**
 * Issue 43: every authenticated route runs the authentication guard once per request, whatever
 * other areas share its path's prefix (areas mounted side by side once ran each other's guards).
 */
const ctx = withTestApp()

describe('the authentication guard', () => {
  it('runs once per request on every authenticated route', async () => {
    const admin = await insertUser(ctx.database, { role: 'admin' })
    let token = (await signIn(ctx, admin.email)).access
    const concrete = (path: string) =>
      path.replace(/:[a-z_]+(\{[^}]*\})?/gi, '1').replace(/\*$/, '')
    const routes = ctx.app.routes.filter(
      (route) => route.method !== 'ALL' && route.path.startsWith(apiPath('/')),
    )
    const seen = new Set<string>()
    const wrong: string[] = []
    for (const route of routes) {
      const key = `${route.method} ${route.path}`
      if (seen.has(key)) continue
      seen.add(key)
      const send = () =>
        ctx.app.request(concrete(route.path), {
          method: route.method,
          headers: {
            authorization: `Bearer ${token}`,
            ...(route.method === 'GET' || route.method === 'HEAD'
              ? {}
              : { 'content-type': 'application/json' }),
          },
          ...(route.method === 'GET' || route.method === 'HEAD' ? {} : { body: '{}' }),
        })
      let before = authGuardRuns()
      let res = await send()
      await res.body?.cancel().catch(() => undefined)
      if (res.status === 401) {
        // an earlier call ended the session (logout, a deleted account): a new person, and again
        const next = await insertUser(ctx.database, { role: 'admin' })
        token = (await signIn(ctx, next.email)).access
        before = authGuardRuns()
        res = await send()
        await res.body?.cancel().catch(() => undefined)
      }
      const runs = authGuardRuns() - before
      // public routes run none; every other runs exactly one
      if (runs > 1) wrong.push(`${key}: the guard ran ${runs} times`)
    }
    expect(seen.size).toBeGreaterThan(150)
    expect(wrong).toEqual([])
  }, 120_000)
})
