import { rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { serve } from '@hono/node-server'
import { apiPath, paths } from '../contract/paths.ts'
import { createApp } from '../server/app.ts'
import { createLogger } from '../server/logger.ts'
import { createMailer } from '../server/mail/index.ts'
import { benchDatabase, round, seedAccount, tempDataDir } from './support.ts'

/**
 * 20 concurrent uploads of 5 MB each through the real HTTP server (streamed multipart, temp file,
 * fsync, rename, row): wall time, throughput and the event-loop lag of the process meanwhile.
 * Clients run in the same process, so the lag is an upper bound for the server's.
 */
const UPLOADS = 20
const SIZE = 5 * 1024 * 1024
const dataDir = tempDataDir()
const { database, stop } = await benchDatabase(dataDir, 10)
const logger = createLogger('silent')
const mailer = createMailer({ transport: 'log', from: 'Quire <bench@localhost>', logger })
try {
  const { pool } = database
  const password = 'Bench-password-for-uploads-42'
  await seedAccount(pool, {
    name: 'Bench',
    license: { users: 5, repository: 1000, questionnaires: 5, answers: 500 },
    password,
  })
  const app = createApp({
    database,
    logger,
    version: 'bench',
    embedded: true,
    publicUrl: 'http://localhost',
    jwtSecret: 'bench-secret-of-quire-at-least-32-characters',
    mailer,
    dataDir,
    maxUploadMb: 50,
  })
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' })
  await new Promise((resolve) => server.once('listening', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const login = await fetch(`${base}${apiPath(paths.auth.login)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.com', password }),
  })
  const { access } = (await login.json()) as { access: string }
  const body = Buffer.alloc(
    SIZE,
    'Quire upload benchmark line about encryption and access reviews.\n',
  )

  const lag = monitorEventLoopDelay({ resolution: 10 })
  lag.enable()
  const started = performance.now()
  const statuses = await Promise.all(
    Array.from({ length: UPLOADS }, async (_, i) => {
      const form = new FormData()
      form.append('files', new Blob([body]), `notes-${i}.txt`)
      const res = await fetch(`${base}${apiPath(paths.files.upload)}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${access}` },
        body: form,
      })
      await res.arrayBuffer()
      return res.status
    }),
  )
  const seconds = (performance.now() - started) / 1000
  lag.disable()
  server.close()
  console.log(
    JSON.stringify({
      bench: 'upload',
      uploads: UPLOADS,
      mb_each: SIZE / 1024 / 1024,
      ok: statuses.filter((s) => s === 201).length,
      seconds: round(seconds, 2),
      mb_per_s: round((UPLOADS * SIZE) / 1024 / 1024 / seconds),
      event_loop_lag_p99_ms: round(lag.percentile(99) / 1e6),
      event_loop_lag_max_ms: round(lag.max / 1e6),
      budget_lag_ms: 100,
    }),
  )
} finally {
  await mailer.close()
  await stop()
  rmSync(dataDir, { recursive: true, force: true })
}
