import { Hono } from 'hono'
import { type Health, healthSchema } from '../../../contract/health.ts'
import { paths } from '../../../contract/paths.ts'
import { type DatabaseWatch, RETRY_AFTER_S } from '../../db/availability.ts'
import { type Database, migrationStatus } from '../../db/index.ts'
import type { AppEnv } from '../../http/env.ts'
import type { Jobs } from '../../jobs/index.ts'

/**
 * GET /api/v1/health: is the database reachable, which migration is applied, are jobs running.
 * 200 when healthy, 503 when not, so load balancers and `npm start` scripts can wait on it.
 */
export function healthRoutes(deps: {
  database: Database
  /** Application version, shown to signed-in callers. */
  version: string
  /** Whether the database is the embedded one. */
  embedded: boolean
  jobs?: Jobs
  databaseWatch: DatabaseWatch
  /** Whether the request carries a valid access token: only then are versions shown. */
  signedIn: (authorization: string | undefined) => Promise<boolean>
}) {
  const app = new Hono<AppEnv>()
  // Migrations only change at start; read them once and then on demand when not yet known.
  let migrations: Health['migrations'] | undefined
  app.get(paths.health, async (c) => {
    const started = performance.now()
    let reachable = true
    try {
      await deps.database.pool.query('select 1')
      deps.databaseWatch.markUp()
    } catch (error) {
      reachable = false
      deps.databaseWatch.suspect(error)
    }
    const latency = reachable ? Math.round((performance.now() - started) * 100) / 100 : null
    if (reachable && !migrations) {
      migrations = await migrationStatus(deps.database.pool).catch(() => undefined)
    }
    const known = reachable && (await deps.signedIn(c.req.header('authorization')))
    const applied = migrations ?? { version: null, applied: 0, pending: 0 }
    const body: Health = healthSchema.parse({
      status: reachable && migrations?.pending === 0 ? 'ok' : 'degraded',
      version: known ? deps.version : undefined,
      uptime_s: Math.round(process.uptime()),
      database: { reachable, latency_ms: latency, embedded: deps.embedded },
      migrations: known ? applied : { ...applied, version: null },
      jobs: { running: deps.jobs?.running ?? false, workers: deps.jobs?.workers ?? false },
    })
    if (body.status === 'ok') return c.json(body, 200)
    return c.json(body, 503, { 'Retry-After': String(RETRY_AFTER_S) })
  })
  return app
}
