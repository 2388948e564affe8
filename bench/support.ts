import { type ChildProcess, spawn } from 'node:child_process'
import { chmodSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type pg from 'pg'
import { hashPassword } from '../server/auth/password.ts'
import { freePort, startEmbeddedPostgres } from '../server/db/embedded.ts'
import { openDatabase, runMigrations } from '../server/db/index.ts'

export const root = fileURLToPath(new URL('..', import.meta.url))

/** A fresh DATA_DIR the embedded PostgreSQL's system user can enter. */
export function tempDataDir() {
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-bench-'))
  chmodSync(dir, 0o755)
  return dir
}

export interface RunningServer {
  url: string
  process: ChildProcess
  /** Milliseconds from spawn to the first healthy answer. */
  readyMs: number
  stop(): Promise<void>
}

/** Starts `server/main.ts` on a free port and waits until /api/v1/health answers 200. */
export async function startServer(
  dataDir: string,
  env: NodeJS.ProcessEnv = {},
): Promise<RunningServer> {
  const port = await freePort()
  const started = performance.now()
  // BENCH_CPU_PROFILE=DIR: the server writes a V8 CPU profile there when it stops
  const profile = process.env.BENCH_CPU_PROFILE
  const flags = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []
  const child = spawn(process.execPath, [...flags, 'server/main.ts'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const url = `http://127.0.0.1:${port}`
  let exited = false
  child.on('exit', () => {
    exited = true
  })
  for (;;) {
    if (exited) throw new Error('the server exited before it was healthy')
    try {
      const res = await fetch(`${url}/api/v1/health`)
      if (res.status === 200) break
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  const readyMs = performance.now() - started
  return {
    url,
    process: child,
    readyMs,
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

export const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits

/**
 * A draw from `words` by a Zipf distribution (rank r has weight 1 / r^1.05), using `random` for
 * the uniform draws: text shaped like real prose, where some words are common and most are rare.
 */
export function zipfSampler(words: readonly string[], random: () => number) {
  const weights = words.map((_, i) => 1 / (i + 1) ** 1.05)
  const total = weights.reduce((sum, w) => sum + w, 0)
  const cumulative: number[] = []
  let running = 0
  for (const weight of weights) {
    running += weight / total
    cumulative.push(running)
  }
  return () => {
    const r = random()
    let lo = 0
    let hi = cumulative.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if ((cumulative[mid] as number) < r) lo = mid + 1
      else hi = mid
    }
    return words[lo] as string
  }
}

/**
 * A benchmark's organisation, its license and one active administrator (with a password when one
 * is given, to sign in over HTTP), written straight to the database.
 */
export async function seedAccount(
  db: Pick<pg.ClientBase, 'query'>,
  options: {
    name: string
    license: { users: number; repository: number; questionnaires: number; answers: number }
    email?: string
    password?: string
  },
) {
  const org = await db.query<{ id: string }>(
    'insert into organizations (name) values ($1) returning id',
    [options.name],
  )
  const orgId = Number(org.rows[0]?.id)
  const { users, repository, questionnaires, answers } = options.license
  await db.query(
    `insert into licenses (org_id, tier_name, max_users, max_repository, max_questionnaire, max_answers)
     values ($1, $2, $3, $4, $5, $6)`,
    [orgId, options.name, users, repository, questionnaires, answers],
  )
  const user = await db.query<{ id: string }>(
    `insert into users (org_id, email, first_name, last_name, password_hash, role, status, email_confirmed_at)
     values ($1, $2, 'Bench', 'User', $3, 'admin', 'active', now()) returning id`,
    [
      orgId,
      options.email ?? 'bench@example.com',
      options.password ? await hashPassword(options.password) : null,
    ],
  )
  return { orgId, userId: Number(user.rows[0]?.id) }
}

/** An embedded PostgreSQL in `dataDir` (no fsync: figures, not durability), migrated. */
export async function benchDatabase(dataDir: string, poolSize: number) {
  const pg = await startEmbeddedPostgres({ dataDir, fsync: false, log: () => {} })
  const database = openDatabase(pg.url, poolSize)
  const stop = async () => {
    await database.close()
    await pg.stop()
  }
  try {
    await runMigrations(database)
  } catch (error) {
    await stop()
    throw error
  }
  return { database, stop }
}
