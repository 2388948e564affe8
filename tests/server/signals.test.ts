import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { attachEmbeddedPostgres, freePort } from '../../server/db/embedded.ts'
import { serverProcesses } from '../support/server-process.ts'

/**
 * Issue 30: `npm start` as an operator runs it, stopped as operators and supervisors stop it.
 * SIGTERM or SIGINT to npm, or npm killed outright, stops the server, its workers and its embedded
 * PostgreSQL: no process of the tree is left, and the next start on the same DATA_DIR is healthy.
 */

const root = path.resolve(import.meta.dirname, '../..')
const procs = serverProcesses('signals')
const { dataDir } = procs
const started: ChildProcess[] = []
let watched: Proc[] = []

afterAll(() => {
  for (const proc of watched.filter(alive)) {
    try {
      process.kill(proc.pid, 'SIGKILL')
    } catch {
      // gone meanwhile
    }
  }
  for (const child of started) if (child.exitCode === null) child.kill('SIGKILL')
  procs.cleanup()
})

interface Proc {
  pid: number
  parent: number
  /** Start time in clock ticks since boot: a reused pid has another. */
  startedAt: string
  state: string
  command: string
}

function readProc(pid: number): Proc | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // "pid (name) state ppid ... starttime(22nd)": the name may hold spaces and parentheses
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim()
    return {
      pid,
      parent: Number(fields[1]),
      startedAt: fields[19] ?? '',
      state: fields[0] ?? '',
      command,
    }
  } catch {
    return undefined
  }
}

/** `pid` and every process below it, from /proc. */
function tree(pid: number): Proc[] {
  const all = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readProc(Number(name)))
    .filter((proc): proc is Proc => proc !== undefined)
  const found = all.filter((proc) => proc.pid === pid)
  for (let i = 0; i < found.length; i += 1) {
    const parent = found[i]?.pid
    found.push(...all.filter((proc) => proc.parent === parent))
  }
  return found
}

function alive(proc: Proc): boolean {
  const now = readProc(proc.pid)
  return Boolean(now && now.startedAt === proc.startedAt && now.state !== 'Z')
}

async function waitFor(check: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline && !check()) await new Promise((resolve) => setTimeout(resolve, 100))
  return check()
}

/** `npm start` on the test's DATA_DIR, healthy, with every process of its tree. */
async function npmStart(options: { ownGroup?: boolean } = {}) {
  const port = await freePort()
  const child = spawn('npm', ['start'], {
    cwd: root,
    // a process group of its own, as a terminal gives it, for a Ctrl-C to the whole group
    detached: options.ownGroup === true,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      // `npm test` runs this before any build exists: start serves the API without one
      QUIRE_SKIP_BUILD: '1',
      EMBEDDED_PG_FSYNC: 'false',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'pretty',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  started.push(child)
  let output = ''
  child.stdout?.on('data', (chunk) => {
    output += chunk
  })
  child.stderr?.on('data', (chunk) => {
    output += chunk
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const server = { child, exited: exited.then(() => child.exitCode), output: () => output }
  await procs.waitHealthy(port, server, 120_000)
  const pid = child.pid ?? 0
  const processes = tree(pid)
  watched = processes
  return { pid, processes, exited, output: () => output }
}

async function expectAllStopped(run: Awaited<ReturnType<typeof npmStart>>) {
  await run.exited
  await waitFor(() => !run.processes.some(alive), 60_000)
  const left = run.processes.filter(alive).map((proc) => `${proc.pid} ${proc.command}`)
  expect(left, run.output()).toEqual([])
  // PostgreSQL was shut down, not abandoned: its pid file is gone, and so is the server's
  expect(attachEmbeddedPostgres(dataDir)).toBeUndefined()
  expect(existsSync(path.join(dataDir, 'server.pid'))).toBe(false)
}

describe('npm start and signals', () => {
  it('SIGTERM to npm stops the server and its embedded PostgreSQL', async () => {
    const run = await npmStart()
    const commands = run.processes.map((proc) => proc.command)
    expect(commands.some((command) => command.includes('scripts/start.ts'))).toBe(true)
    expect(commands.some((command) => /postgres -D /.test(command))).toBe(true)
    process.kill(run.pid, 'SIGTERM')
    await expectAllStopped(run)
    expect(run.output()).toMatch(/shutting down \(SIGTERM\)/)
  }, 240_000)

  it('the next start on the same DATA_DIR is healthy, and SIGINT to npm stops it', async () => {
    const run = await npmStart()
    process.kill(run.pid, 'SIGINT')
    await expectAllStopped(run)
    expect(run.output()).toMatch(/shutting down \(SIGINT\)/)
  }, 240_000)

  it('Ctrl+C at a terminal (SIGINT to every process of the group) stops it once, in order', async () => {
    const run = await npmStart({ ownGroup: true })
    process.kill(-run.pid, 'SIGINT')
    await expectAllStopped(run)
    expect(run.output()).toMatch(/shutting down \(SIGINT\)/)
    // npm passes the Ctrl-C on as well: one shutdown, not 'second signal: exiting now'
    expect(run.output()).not.toMatch(/exiting now|Error/)
    expect(run.output()).toMatch(/INFO {2}stopped$/m)
  }, 240_000)

  it('npm killed outright, passing nothing on, still stops the server', async () => {
    const run = await npmStart()
    process.kill(run.pid, 'SIGKILL')
    await expectAllStopped(run)
    expect(run.output()).toMatch(/shutting down: npm, which started it, has exited/)
  }, 240_000)
})
