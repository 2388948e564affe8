import { type ChildProcess, spawn } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { attachEmbeddedPostgres, freePort } from '../../server/db/embedded.ts'

/**
 * The server as a process: start on an embedded PostgreSQL, survive a SIGKILL with data intact,
 * stop cleanly on SIGTERM, refuse a bad configuration naming the variable.
 */

const root = path.resolve(import.meta.dirname, '../..')
const dataDir = mkdtempSync(path.join(tmpdir(), 'quire-process-'))
chmodSync(dataDir, 0o755)
const children: ChildProcess[] = []

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
  const pidFile = path.join(dataDir, 'pg', 'postmaster.pid')
  if (existsSync(pidFile)) {
    const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0])
    try {
      process.kill(pid, 'SIGQUIT')
    } catch {
      // gone
    }
  }
  rmSync(dataDir, { recursive: true, force: true })
})

function start(env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      EMBEDDED_PG_FSYNC: 'true',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk) => {
    output += chunk
  })
  child.stderr?.on('data', (chunk) => {
    output += chunk
  })
  children.push(child)
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { child, exited, output: () => output }
}

async function waitHealthy(port: number, child: ChildProcess) {
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error('server exited')
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/health`)
      if (res.status === 200) return (await res.json()) as { migrations: { pending: number } }
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error('server did not become healthy')
}

async function query<T extends pg.QueryResultRow>(sql: string, values: unknown[] = []) {
  const url = attachEmbeddedPostgres(dataDir)
  if (!url) throw new Error('no embedded cluster running')
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query<T>(sql, values)).rows
  } finally {
    await client.end()
  }
}

describe('server process', () => {
  it('comes back after a SIGKILL with its data intact, then stops cleanly on SIGTERM', async () => {
    const port = await freePort()
    const first = start({ PORT: String(port) })
    expect((await waitHealthy(port, first.child)).migrations.pending).toBe(0)
    await query("insert into organizations (name) values ('Survives SIGKILL Ltd')")

    first.child.kill('SIGKILL')
    await first.exited
    // the orphaned PostgreSQL still holds the data directory
    expect(attachEmbeddedPostgres(dataDir)).toBeTruthy()

    const second = start({ PORT: String(port) })
    await waitHealthy(port, second.child)
    const rows = await query<{ name: string }>('select name from organizations')
    expect(rows.map((row) => row.name)).toContain('Survives SIGKILL Ltd')

    second.child.kill('SIGTERM')
    expect(await second.exited).toBe(0)
    expect(attachEmbeddedPostgres(dataDir)).toBeUndefined()
    expect(existsSync(path.join(dataDir, 'server.pid'))).toBe(false)
  }, 60_000)

  it('refuses a second server on the same DATA_DIR', async () => {
    const port = await freePort()
    const first = start({ PORT: String(port) })
    await waitHealthy(port, first.child)
    const second = start({ PORT: String(await freePort()) })
    expect(await second.exited).toBe(1)
    expect(second.output()).toContain('already running on DATA_DIR')
    first.child.kill('SIGTERM')
    expect(await first.exited).toBe(0)
  }, 60_000)

  it('a bad value stops the start with a message naming the variable', async () => {
    const bad = start({ PORT: 'eighty' })
    expect(await bad.exited).toBe(78)
    expect(bad.output()).toMatch(/PORT: must be a port number/)
  })
})
