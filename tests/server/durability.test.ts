import { type ChildProcess, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { apiPath, paths } from '../../contract/paths.ts'
import { hashPassword } from '../../server/auth/password.ts'
import { attachEmbeddedPostgres, freePort } from '../../server/db/embedded.ts'

/**
 * DU1: a server killed with SIGKILL at random points of uploads and ingestion comes back with no
 * ready file whose blob is partial, no temp file of the dead process, and nothing left 'processing'.
 */

const root = path.resolve(import.meta.dirname, '../..')
const dataDir = mkdtempSync(path.join(tmpdir(), 'quire-du1-'))
chmodSync(dataDir, 0o755)
const children: ChildProcess[] = []

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
  const pidFile = path.join(dataDir, 'pg', 'postmaster.pid')
  if (existsSync(pidFile)) {
    try {
      process.kill(Number(readFileSync(pidFile, 'utf8').split('\n')[0]), 'SIGQUIT')
    } catch {
      // gone
    }
  }
  rmSync(dataDir, { recursive: true, force: true })
})

function start(port: number) {
  const child = spawn(process.execPath, ['server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'fatal',
      EMBEDDED_PG_FSYNC: 'false',
    },
    stdio: 'ignore',
  })
  children.push(child)
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  return { child, exited }
}

async function waitHealthy(port: number) {
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/v1/health`)).status === 200) return
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error('server did not become healthy')
}

async function query<T extends pg.QueryResultRow>(sql: string, values: unknown[] = []) {
  const url = attachEmbeddedPostgres(dataDir)
  if (!url) throw new Error('no embedded cluster')
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query<T>(sql, values)).rows
  } finally {
    await client.end()
  }
}

/** A multipart upload whose body trickles in, so that a kill can land in the middle of it. */
function slowUpload(base: string, token: string, name: string, size: number) {
  const boundary = 'quire-du1-boundary'
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n`,
  )
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
  const chunk = Buffer.alloc(128 * 1024, 'Durability line about backups and encryption at rest.\n')
  let sent = 0
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent === 0) controller.enqueue(head)
      if (sent >= size) {
        controller.enqueue(tail)
        controller.close()
        return
      }
      await new Promise((resolve) => setTimeout(resolve, 3))
      const part = chunk.subarray(0, Math.min(chunk.length, size - sent))
      sent += part.length
      controller.enqueue(part)
    },
  })
  return fetch(`${base}${apiPath(paths.files.upload)}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    body,
    duplex: 'half',
  } as RequestInit).then(
    (res) => res.status,
    () => 0,
  )
}

describe('durability', () => {
  it('DU1: SIGKILL at 20 random points mid-upload leaves no partial ready file and no orphan temp file', async () => {
    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    let server = start(port)
    await waitHealthy(port)
    const [org] = await query<{ id: string }>(
      `insert into organizations (name) values ('Durable') returning id`,
    )
    await query(
      `insert into licenses (org_id, tier_name, max_users, max_repository, max_questionnaire, max_answers) values ($1, 'T', 5, 1000, 5, 500)`,
      [org?.id],
    )
    const password = 'Durable-password-for-kills-42'
    await query(
      `insert into users (org_id, email, first_name, last_name, password_hash, role, status, email_confirmed_at)
       values ($1, 'du1@example.com', 'Du', 'One', $2, 'admin', 'active', now())`,
      [org?.id, await hashPassword(password)],
    )
    const login = await fetch(`${base}${apiPath(paths.auth.login)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'du1@example.com', password }),
    })
    const { access } = (await login.json()) as { access: string }

    for (let round = 0; round < 20; round++) {
      // a slow upload in flight, a finished one being ingested, then a kill at a random moment
      const inFlight = slowUpload(base, access, `slow-${round}.txt`, 2 * 1024 * 1024)
      const quick = slowUpload(base, access, `quick-${round}.txt`, 256 * 1024)
      await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 200)))
      server.child.kill('SIGKILL')
      await server.exited
      await Promise.all([inFlight, quick])
      server = start(port)
      await waitHealthy(port)
    }
    const restartedAt = new Date()

    const rows = await query<{
      id: string
      org_id: string
      status: string
      storage_key: string | null
      size_bytes: string
      sha256: string | null
      processing_started_at: Date | null
    }>(
      'select id, org_id, status, storage_key, size_bytes, sha256, processing_started_at from repository_files',
    )
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) {
      if (row.status === 'processing')
        expect(
          row.processing_started_at &&
            row.processing_started_at >= new Date(restartedAt.getTime() - 30_000),
        ).toBeTruthy()
      if (!row.storage_key) continue
      // every stored row has its whole blob: same size, same hash
      const blob = readFileSync(path.join(dataDir, 'files', String(row.org_id), row.storage_key))
      expect(blob.length).toBe(Number(row.size_bytes))
      expect(createHash('sha256').update(blob).digest('hex')).toBe(row.sha256)
    }
    // nothing was left 'processing' by a dead process: the restart failed it with a readable error
    const interrupted = await query<{ error: string }>(
      `select error from repository_files where status = 'failed'`,
    )
    for (const row of interrupted) expect(row.error).toMatch(/interrupted|could not|took longer/i)
    // temp files of killed processes are gone
    const tmp = path.join(dataDir, 'tmp')
    const leftovers = existsSync(tmp)
      ? readdirSync(tmp).filter((name) => Number(name.split('-')[0]) !== server.child.pid)
      : []
    expect(leftovers).toEqual([])
    server.child.kill('SIGTERM')
    await server.exited
  }, 180_000)
})
