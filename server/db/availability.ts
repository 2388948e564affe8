import pg from 'pg'
import type { Logger } from '../logger.ts'

const { Client } = pg

/**
 * Whether the database can be reached. A call that fails because PostgreSQL is gone (refused,
 * terminated, shutting down, starting up) marks it down; while down, API calls answer 503 with
 * Retry-After at once instead of 500, and a probe checks every second until it answers again.
 * The embedded server is restarted by its supervisor (server/db/embedded.ts); with an external
 * database that stays away past `exitAfterMs`, `onLongOutage` lets the process exit non-zero so
 * that its own supervisor (systemd, Kubernetes) restarts it.
 */

/** SQLSTATEs and socket codes that mean "no database right now", not "this statement failed". */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
])
const UNAVAILABLE_MESSAGE =
  /Connection terminated|terminating connection|Client has encountered a connection error|Connection refused/i
/**
 * pg-pool's words when every pooled connection is busy and the wait for one ran out: the database
 * is there, this node is just saturated. It is back-pressure (503 for that request, with a short
 * Retry-After), never a reason to call the database away for everyone.
 */
const POOL_WAIT_MESSAGE = /timeout exceeded when trying to connect/i

export function isPoolSaturated(error: unknown): boolean {
  return error instanceof Error && POOL_WAIT_MESSAGE.test(error.message)
}

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 6; depth++) {
    if (typeof current !== 'object') return false
    const { code, syscall, message, cause, errors } = current as {
      code?: unknown
      syscall?: unknown
      message?: unknown
      cause?: unknown
      errors?: unknown
    }
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true
    // the embedded server's socket file is gone while it restarts (not a file the code reads)
    if (code === 'ENOENT' && syscall === 'connect') return true
    if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) return true
    // AggregateError from a connect to several addresses
    if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner))) return true
    current = cause
  }
  return false
}

/** Seconds a client should wait before trying again while the database is away. */
export const RETRY_AFTER_S = 5
/** Seconds a client should wait when this node's connections were all busy. */
export const BUSY_RETRY_AFTER_S = 1

export interface DatabaseWatch {
  readonly down: boolean
  /** Since when the database has been away, or null. */
  readonly downSince: number | null
  markDown(reason?: unknown): void
  /**
   * A statement failed as if the database were gone: a connection of its own (not the pool's,
   * which may only be busy) is tried, and only when that fails too is the database marked down.
   * One failed request (a terminated backend, a restart already over) never turns the whole
   * server to 503.
   */
  suspect(reason?: unknown): void
  markUp(): void
  stop(): void
}

/** One statement on a connection of its own, so a saturated pool cannot make it fail. */
async function reachable(pool: pg.Pool, timeoutMs: number): Promise<boolean> {
  const client = new Client({
    ...(pool.options as pg.ClientConfig),
    connectionTimeoutMillis: timeoutMs,
    application_name: `quire-probe:${process.pid}`,
  })
  client.on('error', () => {})
  try {
    await client.connect()
    await client.query('select 1')
    return true
  } catch {
    return false
  } finally {
    await client.end().catch(() => {})
  }
}

export function watchDatabase(
  pool: pg.Pool,
  options: {
    logger?: Logger
    probeEveryMs?: number
    exitAfterMs?: number
    onLongOutage?: () => void
  } = {},
): DatabaseWatch {
  const log = options.logger?.child({ component: 'database' })
  let downSince: number | null = null
  let timer: NodeJS.Timeout | undefined
  let stopped = false
  let checking: Promise<void> | null = null

  const probe = async () => {
    timer = undefined
    if (stopped || downSince === null) return
    if (await reachable(pool, 3_000)) {
      watch.markUp()
      return
    }
    if (
      options.exitAfterMs &&
      options.onLongOutage &&
      Date.now() - downSince >= options.exitAfterMs
    ) {
      log?.fatal(
        { down_ms: Date.now() - downSince },
        'the database has been unreachable too long; exiting so that a supervisor restarts this process',
      )
      options.onLongOutage()
      return
    }
    timer = setTimeout(probe, options.probeEveryMs ?? 1_000)
    timer.unref()
  }

  const watch: DatabaseWatch = {
    get down() {
      return downSince !== null
    },
    get downSince() {
      return downSince
    },
    markDown(reason) {
      if (stopped) return
      if (downSince === null) {
        downSince = Date.now()
        log?.error(
          { reason: reason instanceof Error ? reason.message : reason },
          'database unreachable: answering 503 until it is back',
        )
      }
      if (!timer) {
        timer = setTimeout(probe, options.probeEveryMs ?? 1_000)
        timer.unref()
      }
    },
    suspect(reason) {
      if (stopped || downSince !== null || checking) return
      checking = reachable(pool, 3_000)
        .then((up) => {
          if (!up) watch.markDown(reason)
        })
        .finally(() => {
          checking = null
        })
    },
    markUp() {
      if (downSince === null) return
      log?.info({ down_ms: Date.now() - downSince }, 'database reachable again')
      downSince = null
      if (timer) clearTimeout(timer)
      timer = undefined
    },
    stop() {
      stopped = true
      if (timer) clearTimeout(timer)
    },
  }
  return watch
}
