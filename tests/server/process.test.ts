import { existsSync } from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { attachEmbeddedPostgres, freePort } from '../../server/db/embedded.ts'
import { serverProcesses } from '../support/server-process.ts'

/**
 * The server as a process: start on an embedded PostgreSQL, survive a SIGKILL with data intact,
 * stop cleanly on SIGTERM, refuse a bad configuration naming the variable.
 */

const procs = serverProcesses('process')
const { dataDir, waitHealthy, query } = procs
afterAll(procs.cleanup)

/** Durable writes and warnings in the captured output, as an operator would run it. */
const start = (port: number | string) =>
  procs.start(0, {
    capture: true,
    env: { PORT: String(port), LOG_LEVEL: 'warn', EMBEDDED_PG_FSYNC: 'true' },
  })

describe('server process', () => {
  it('comes back after a SIGKILL with its data intact, then stops cleanly on SIGTERM', async () => {
    const port = await freePort()
    const first = start(port)
    expect((await waitHealthy(port, first)).migrations.pending).toBe(0)
    await query("insert into organizations (name) values ('Survives SIGKILL Ltd')")

    first.child.kill('SIGKILL')
    await first.exited
    // the orphaned PostgreSQL still holds the data directory
    expect(attachEmbeddedPostgres(dataDir)).toBeTruthy()

    const second = start(port)
    await waitHealthy(port, second)
    const rows = await query<{ name: string }>('select name from organizations')
    expect(rows.map((row) => row.name)).toContain('Survives SIGKILL Ltd')

    second.child.kill('SIGTERM')
    expect(await second.exited).toBe(0)
    expect(attachEmbeddedPostgres(dataDir)).toBeUndefined()
    expect(existsSync(path.join(dataDir, 'server.pid'))).toBe(false)
  }, 60_000)

  it('refuses a second server on the same DATA_DIR', async () => {
    const port = await freePort()
    const first = start(port)
    await waitHealthy(port, first)
    const second = start(await freePort())
    expect(await second.exited).toBe(1)
    expect(second.output()).toContain('already running on DATA_DIR')
    first.child.kill('SIGTERM')
    expect(await first.exited).toBe(0)
  }, 60_000)

  it('a bad value stops the start with a message naming the variable', async () => {
    const bad = start('eighty')
    expect(await bad.exited).toBe(78)
    expect(bad.output()).toMatch(/PORT: must be a port number/)
  })
})
