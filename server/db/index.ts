import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres'
import { migrate } from 'drizzle-orm/node-postgres/migrator'
import pg from 'pg'
import * as schema from './schema.ts'

export const MIGRATIONS_DIR = new URL('./migrations', import.meta.url).pathname

export type Db = NodePgDatabase<typeof schema>

export interface Database {
  pool: pg.Pool
  db: Db
  close(): Promise<void>
}

// bigint columns (counts, ids) come back as JS numbers; ids stay well below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10))

export function openDatabase(url: string, poolSize = 10): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
    // the process id tells operators (and the fault tests) which process holds a connection
    application_name: `quire:${process.pid}`,
  })
  // A client losing its connection (database restart, failover, pg_terminate_backend) must never
  // crash the process: an idle one is the pool's (its 'error' event), but a client taken out of
  // the pool and held between statements (a transaction awaiting other work, a run's lease) emits
  // 'error' on itself with nothing listening, which node turns into an uncaught exception. Every
  // client gets a listener of its own when it connects; the statement in flight (if any) fails
  // with the same error, and the client, no longer queryable, is dropped when it is released.
  pool.on('error', () => {})
  pool.on('connect', (client) => {
    client.on('error', () => {})
  })
  return {
    pool,
    db: drizzle(pool, { schema }),
    close: () => pool.end(),
  }
}

/**
 * A statement as a named prepared statement: each connection parses and plans it once, then
 * only binds and executes it (PostgreSQL keeps a generic plan once it pays). The name is the
 * text's hash, so any statement the code builds (a list with its filters) can be one; the hot
 * paths (every call's session look-up, list pages) use it.
 */
export function prepared(text: string, values: unknown[]): pg.QueryConfig {
  const name = `q_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`
  return { name, text, values }
}

interface Journal {
  entries: { idx: number; tag: string; when: number }[]
}

/** The migrations this build ships, from drizzle's journal. */
export function shippedMigrations(): Journal['entries'] {
  const journal = JSON.parse(
    readFileSync(new URL('./migrations/meta/_journal.json', import.meta.url), 'utf8'),
  ) as Journal
  return journal.entries
}

const MIGRATION_LOCK = 7_312_001

/**
 * Applies the committed migrations. Several nodes may start at once against one database: an
 * advisory lock makes them take turns, and the second finds nothing left to do.
 */
export async function runMigrations(database: Database): Promise<void> {
  const client = await database.pool.connect()
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK])
    await migrate(drizzle(client, { schema }), { migrationsFolder: MIGRATIONS_DIR })
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {})
    client.release()
  }
}

export interface MigrationStatus {
  /** Tag of the newest applied migration, e.g. `0001_foundation`, or null before any. */
  version: string | null
  applied: number
  pending: number
}

/** Compares the applied migrations (drizzle's bookkeeping table) with the shipped journal. */
export async function migrationStatus(pool: pg.Pool): Promise<MigrationStatus> {
  const shipped = shippedMigrations()
  const result = await pool
    .query<{ created_at: string }>(
      'select created_at from drizzle.__drizzle_migrations order by created_at desc',
    )
    .catch((error: { code?: string }) => {
      if (error.code === '42P01' || error.code === '3F000') return { rows: [] }
      throw error
    })
  const applied = result.rows.length
  const newest = result.rows[0] ? Number(result.rows[0].created_at) : undefined
  const entry = shipped.find((item) => item.when === newest)
  return {
    version: entry?.tag ?? (applied > 0 ? `unknown (${applied} applied)` : null),
    applied,
    pending: Math.max(shipped.length - applied, 0),
  }
}

/**
 * Runs `work` in one transaction on a client of its own: committed when it returns, rolled back
 * when it throws, the client released either way.
 */
export async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect()
  try {
    await client.query('begin')
    const result = await work(client)
    await client.query('commit')
    return result
  } catch (error) {
    await client.query('rollback').catch(() => undefined)
    throw error
  } finally {
    client.release()
  }
}

/** A transaction handle: services pass it down so that multi-step writes commit together (DU3). */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
export type DbOrTx = Db | Tx
