import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { healthSchema } from '../../contract/health.ts'
import { shippedMigrations } from '../../server/db/index.ts'
import { createTestApp } from './support.ts'

describe('GET /api/v1/health', () => {
  let ctx: Awaited<ReturnType<typeof createTestApp>>
  beforeAll(async () => {
    ctx = await createTestApp()
  })
  afterAll(() => ctx.close())

  it('reports a reachable database and the newest migration', async () => {
    const res = await ctx.app.request('/api/v1/health')
    expect(res.status).toBe(200)
    const body = healthSchema.parse(await res.json())
    expect(body.status).toBe('ok')
    expect(body.database.reachable).toBe(true)
    expect(body.database.latency_ms).toBeTypeOf('number')
    const shipped = shippedMigrations()
    expect(body.migrations).toEqual({
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
    await other.database.pool.end()
    const res = await other.app.request('/api/v1/health')
    expect(res.status).toBe(503)
    const body = healthSchema.parse(await res.json())
    expect(body.status).toBe('degraded')
    expect(body.database).toMatchObject({ reachable: false, latency_ms: null })
    await other.database.drop().catch(() => {})
  })
})
