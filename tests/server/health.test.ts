import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { healthSchema } from '../../contract/health.ts'
import { shippedMigrations } from '../../server/db/index.ts'
import { insertUser, signIn } from './auth/helpers.ts'
import { createTestApp, withTestApp } from './support.ts'

describe('GET /api/v1/health', () => {
  const ctx = withTestApp()

  it('reports a reachable database, and versions only to a signed-in caller (issue 14)', async () => {
    const res = await ctx.app.request('/api/v1/health')
    expect(res.status).toBe(200)
    const body = healthSchema.parse(await res.json())
    expect(body.status).toBe('ok')
    expect(body.database.reachable).toBe(true)
    expect(body.database.latency_ms).toBeTypeOf('number')
    const shipped = shippedMigrations()
    // anonymous: nothing says what is deployed
    expect(body.version).toBeUndefined()
    expect(body.migrations).toEqual({ version: null, applied: shipped.length, pending: 0 })
    const forged = await ctx.app.request('/api/v1/health', {
      headers: { authorization: 'Bearer not-a-token' },
    })
    expect(healthSchema.parse(await forged.json()).version).toBeUndefined()
    const user = await insertUser(ctx.database)
    const session = await signIn(ctx, user.email)
    const signedIn = healthSchema.parse(
      await (
        await ctx.app.request('/api/v1/health', {
          headers: { authorization: `Bearer ${session.access}` },
        })
      ).json(),
    )
    expect(signedIn.version).toBe('test')
    expect(signedIn.migrations).toEqual({
      version: shipped.at(-1)?.tag,
      applied: shipped.length,
      pending: 0,
    })
  })

  it('is never cached', async () => {
    const res = await ctx.app.request('/api/v1/health')
    expect(res.headers.get('cache-control')).toBe('no-store')
  })

  it('answers 503 degraded when the database is unreachable', async () => {
    const other = await createTestApp()
    const { pool } = other.database
    // the database goes away: connections open are ended, new ones are refused
    ;(pool.options as { connectionString?: string }).connectionString =
      'postgres://quire:gone@127.0.0.1:1/gone'
    const admin = new pg.Client({ connectionString: other.database.url })
    await admin.connect()
    await admin.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid()`,
    )
    await admin.end()
    const res = await other.app.request('/api/v1/health')
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBe('5')
    // once a connection of its own fails too, every other call answers 503 with Retry-After,
    // never 500 (issue 14 fix 4), before any other work is done
    let call = new Response()
    for (let i = 0; i < 100; i++) {
      call = await other.app.request('/api/v1/filler/questionnaires/', {
        headers: { authorization: 'Bearer x' },
      })
      if (call.status === 503) break
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(call.status).toBe(503)
    expect(call.headers.get('retry-after')).toBe('5')
    expect(await call.json()).toMatchObject({ code: 'service_unavailable' })
    const body = healthSchema.parse(await res.json())
    expect(body.status).toBe('degraded')
    expect(body.database).toMatchObject({ reachable: false, latency_ms: null })
    await other.database.drop().catch(() => {})
  })
})
