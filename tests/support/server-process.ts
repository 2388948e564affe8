import { type ChildProcess, spawn } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, afterEach } from 'vitest'
import { apiPath, paths } from '../../contract/paths.ts'
import { hashPassword } from '../../server/auth/password.ts'
import { attachEmbeddedPostgres } from '../../server/db/embedded.ts'
import { client } from './process-api.ts'

/**
 * The real server as a child process on a DATA_DIR of its own, for the tests that kill it
 * (durability, faults): start, wait until healthy, query its embedded PostgreSQL directly, sign a
 * seeded member in, and clean everything up, orphaned PostgreSQL included.
 */

const root = path.resolve(import.meta.dirname, '../..')

export interface ServerChild {
  child: ChildProcess
  exited: Promise<number | null>
  /** What it printed, when started with `capture`. */
  output(): string
}

/** Kills a server with SIGKILL and waits for it to be gone. */
export async function kill(server: ServerChild) {
  if (server.child.exitCode === null && server.child.signalCode === null)
    server.child.kill('SIGKILL')
  await server.exited
}

/**
 * The server processes of a suite file: a process a failed case leaves running is killed before
 * the next case, and everything is cleaned up after the file.
 */
export function processSuite(label: string) {
  const procs = serverProcesses(label)
  afterAll(procs.cleanup)
  afterEach(procs.killStarted)
  return procs
}

/** How a process is started: extra environment, its output kept, another entry point. */
interface StartOptions {
  env?: Record<string, string>
  capture?: boolean
  entry?: string
}

export function serverProcesses(label: string) {
  const dataDir = mkdtempSync(path.join(tmpdir(), `quire-${label}-`))
  chmodSync(dataDir, 0o755)
  const children: ChildProcess[] = []
  /** The processes started since the last `killStarted`. */
  let started: ServerChild[] = []

  function start(port: number, options: StartOptions = {}): ServerChild {
    const child = spawn(process.execPath, [options.entry ?? 'server/main.ts'], {
      cwd: root,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: String(port),
        LOG_LEVEL: options.capture ? 'info' : 'fatal',
        EMBEDDED_PG_FSYNC: 'false',
        ...options.env,
      },
      stdio: options.capture ? ['ignore', 'pipe', 'pipe'] : 'ignore',
    })
    let output = ''
    child.stdout?.on('data', (chunk) => {
      output += chunk
    })
    child.stderr?.on('data', (chunk) => {
      output += chunk
    })
    children.push(child)
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => resolve(code)),
    )
    const server = { child, exited, output: () => output }
    started.push(server)
    return server
  }

  /** Kills every process started since the last call: a case's leftovers, before the next case. */
  async function killStarted() {
    const list = started
    started = []
    for (const server of list) await kill(server)
  }

  /** Waits for 200 from /api/v1/health and returns its body; fails at once if `server` exits. */
  async function waitHealthy(port: number, server?: ServerChild, timeoutMs = 30_000) {
    const deadline = Date.now() + timeoutMs
    while (Date.now() < deadline) {
      if (server && server.child.exitCode !== null) throw new Error('server exited')
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/v1/health`)
        if (res.status === 200) return (await res.json()) as { migrations: { pending: number } }
      } catch {
        // not up yet
      }
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    throw new Error('server did not become healthy')
  }

  /** Starts the server on `port` (as `start`) and waits until it is healthy: the server. */
  async function startHealthy(port: number, options: StartOptions = {}) {
    const server = start(port, options)
    await waitHealthy(port)
    return server
  }

  /** A statement against the running server's embedded PostgreSQL. */
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

  /** An organisation with an active admin, signed in through the API; its access token. */
  async function seedMember(port: number, email: string, limits = { answers: 100_000 }) {
    const [org] = await query<{ id: string }>(
      `insert into organizations (name) values ($1) returning id`,
      [`Org of ${email}`],
    )
    await query(
      `insert into licenses (org_id, tier_name, max_users, max_repository, max_questionnaire, max_answers)
       values ($1, 'T', 5, 1000, 50, $2)`,
      [org?.id, limits.answers],
    )
    const password = 'Fault-tolerant-password-42'
    await query(
      `insert into users (org_id, email, first_name, last_name, password_hash, role, status, email_confirmed_at)
       values ($1, $2, 'Test', 'Member', $3, 'admin', 'active', now())`,
      [org?.id, email, await hashPassword(password)],
    )
    const login = await fetch(`http://127.0.0.1:${port}${apiPath(paths.auth.login)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    })
    const { access } = (await login.json()) as { access: string }
    return { orgId: Number(org?.id), access }
  }

  /**
   * A member of a new organisation signed in on the server at `port` (`seedMember`): their token,
   * an API client as them, and `at`, a client as them on another node of the same database. A
   * client holds only the port and the token, so it serves again once its server is restarted.
   */
  async function signedIn(port: number, email: string) {
    const { access } = await seedMember(port, email)
    return { access, api: client(port, access), at: (other: number) => client(other, access) }
  }

  /** The postmaster's pid, from its pid file. */
  function postmasterPid() {
    const pidFile = path.join(dataDir, 'pg', 'postmaster.pid')
    return existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').split('\n')[0]) : null
  }

  function cleanup() {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
    const pid = postmasterPid()
    if (pid) {
      try {
        process.kill(pid, 'SIGQUIT')
      } catch {
        // gone
      }
    }
    rmSync(dataDir, { recursive: true, force: true })
  }

  /** The connection URL of the running embedded cluster, for nodes started with DATABASE_URL. */
  function databaseUrl() {
    const url = attachEmbeddedPostgres(dataDir)
    if (!url) throw new Error('no embedded cluster')
    return url
  }

  return {
    dataDir,
    start,
    startHealthy,
    killStarted,
    waitHealthy,
    query,
    seedMember,
    signedIn,
    postmasterPid,
    databaseUrl,
    cleanup,
  }
}
