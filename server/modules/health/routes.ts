import { Hono } from 'hono'
import { type Health, healthSchema } from '../../../contract/health.ts'
import { paths } from '../../../contract/paths.ts'
import type { AppDeps, AppEnv } from '../../app.ts'
import { migrationStatus } from '../../db/index.ts'

/**
 * GET /api/v1/health: is the database reachable, which migration is applied, are jobs running.
 * 200 when healthy, 503 when not, so load balancers and `npm start` scripts can wait on it.
 */
export function healthRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>()
  // Migrations only change at start; read them once and then on demand when not yet known.
  let migrations: Health['migrations'] | undefined
  app.get(paths.health, async (c) => {
    const started = performance.now()
    let reachable = true
    try {
      await deps.database.pool.query('select 1')
    } catch {
      reachable = false
    }
    const latency = reachable ? Math.round((performance.now() - started) * 100) / 100 : null
    if (reachable && !migrations) {
      migrations = await migrationStatus(deps.database.pool).catch(() => undefined)
    }
    const body: Health = healthSchema.parse({
      status: reachable && migrations?.pending === 0 ? 'ok' : 'degraded',
      version: deps.version,
      uptime_s: Math.round(process.uptime()),
      database: { reachable, latency_ms: latency, embedded: deps.embedded },
      migrations: migrations ?? { version: null, applied: 0, pending: 0 },
      jobs: { running: deps.jobs?.running ?? false, workers: deps.jobs?.workers ?? false },
    })
    return c.json(body, body.status === 'ok' ? 200 : 503)
  })
  return app
}
