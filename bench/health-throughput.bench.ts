import { rmSync } from 'node:fs'
import autocannon from 'autocannon'
import { round, startServer, tempDataDir } from './support.ts'

/** GET /api/v1/health under load: 10 s, 50 connections, loopback. Budget: at least 3,000 req/s. */
const dataDir = tempDataDir()
const server = await startServer(dataDir)
try {
  const result = await autocannon({
    url: `${server.url}/api/v1/health`,
    connections: 50,
    duration: 10,
  })
  console.log(
    JSON.stringify({
      bench: 'health-throughput',
      requests_per_s: round(result.requests.average, 0),
      latency_p50_ms: result.latency.p50,
      latency_p99_ms: result.latency.p99,
      non_2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      budget_requests_per_s: 3000,
      within_budget: result.requests.average >= 3000 && result.non2xx === 0 && result.errors === 0,
    }),
  )
} finally {
  await server.stop()
  rmSync(dataDir, { recursive: true, force: true })
}
