import { execFileSync } from 'node:child_process'
import { once } from 'node:events'
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import path from 'node:path'
import { createInterface } from 'node:readline'
import type pg from 'pg'
import {
  attachEmbeddedPostgres,
  type EmbeddedPostgres,
  startEmbeddedPostgres,
} from '../server/db/embedded.ts'
import {
  inTransaction,
  openDatabase,
  runMigrations,
  shippedMigrations,
} from '../server/db/index.ts'
import { VERSION } from '../server/version.ts'

/**
 * `npm run backup` and `npm run restore FILE`: one archive (tar) holding the database and the
 * stored files of a Quire install, embedded or external.
 *
 * The database part is a logical dump of Quire's own tables, written by Quire itself: each table's
 * rows as JSON lines, read in batches while the server runs (one repeatable-read snapshot, so the
 * rows are consistent with each other). pg_dump is not used because no pg_dump that can read
 * PostgreSQL 18 (the embedded server) is available from npm or Debian 12; this format needs no
 * client tools, works against any PostgreSQL 15+, and restores into the schema of the migrations
 * it was taken at. The job queue (pg-boss) is not kept: work in flight is queued again by the
 * server's recovery after a restore.
 */

export const FORMAT = 1
const BATCH = 1_000

export interface Manifest {
  format: number
  quire_version: string
  created_at: string
  /** Migrations applied when the backup was taken. */
  migrations: number
  tables: Record<string, { rows: number; columns: string[] }>
  files: { count: number; bytes: number }
  jwt_secret: boolean
}

export interface Target {
  dataDir: string
  databaseUrl?: string
  log: (line: string) => void
}

/** The database to use: DATABASE_URL, the running embedded server's, or a started embedded one. */
async function connect(target: Target, options: { refuseRunning?: boolean } = {}) {
  let cluster: EmbeddedPostgres | undefined
  let url = target.databaseUrl
  if (!url) {
    url = attachEmbeddedPostgres(target.dataDir)
    if (url && options.refuseRunning)
      throw new Error(
        `Quire is running on DATA_DIR ${target.dataDir}. Stop it before restoring (a running server would work on the data while it is replaced).`,
      )
    if (!url) {
      if (!existsSync(path.join(target.dataDir, 'pg', 'PG_VERSION')) && !options.refuseRunning)
        throw new Error(`There is no Quire database in DATA_DIR ${target.dataDir} to back up.`)
      target.log('starting the embedded PostgreSQL')
      cluster = await startEmbeddedPostgres({ dataDir: target.dataDir, log: () => {} })
      url = cluster.url
    }
  }
  const database = openDatabase(url, 2)
  return {
    database,
    async close() {
      await database.close()
      await cluster?.stop()
    },
  }
}

/** Quire's tables (schema public) with the columns a restore writes (not generated ones). */
async function tablesOf(client: pg.ClientBase) {
  const { rows } = await client.query<{ table: string; columns: string[] }>(
    `select c.relname as table,
            array_agg(a.attname::text order by a.attnum) as columns
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where n.nspname = 'public' and c.relkind in ('r', 'p') and a.attgenerated = ''
      group by c.relname order by c.relname`,
  )
  return rows
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`

function walkFiles(dir: string): { count: number; bytes: number } {
  if (!existsSync(dir)) return { count: 0, bytes: 0 }
  let count = 0
  let bytes = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) {
      const inner = walkFiles(full)
      count += inner.count
      bytes += inner.bytes
    } else if (entry.isFile()) {
      count += 1
      bytes += statSync(full).size
    }
  }
  return { count, bytes }
}

/** Writes the backup archive; returns its path and manifest. */
export async function backup(target: Target, output?: string) {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '')
  const file = path.resolve(output ?? path.join(target.dataDir, 'backups', `quire-${stamp}.tar`))
  mkdirSync(path.dirname(file), { recursive: true })
  const stage = mkdtempSync(path.join(path.dirname(file), '.backup-'))
  const { database, close } = await connect(target)
  try {
    const client = await database.pool.connect()
    const manifest: Manifest = {
      format: FORMAT,
      quire_version: VERSION,
      created_at: new Date().toISOString(),
      migrations: 0,
      tables: {},
      files: { count: 0, bytes: 0 },
      jwt_secret: false,
    }
    try {
      // one snapshot for every table, so that rows that refer to each other agree
      await client.query('begin isolation level repeatable read read only')
      const applied = await client.query<{ n: number }>(
        'select count(*)::int as n from drizzle.__drizzle_migrations',
      )
      manifest.migrations = applied.rows[0]?.n ?? 0
      mkdirSync(path.join(stage, 'data'))
      for (const { table, columns } of await tablesOf(client)) {
        const out = createWriteStream(path.join(stage, 'data', `${table}.ndjson`))
        const list = columns.map(quote).join(', ')
        let rows = 0
        let after = '(0,0)'
        for (;;) {
          const batch = await client.query<{ tid: string; row: unknown }>(
            `select ctid::text as tid, json_build_array(${list}) as row from ${quote(table)}
              where ctid > $1::tid order by ctid limit ${BATCH}`,
            [after],
          )
          for (const line of batch.rows) {
            if (!out.write(`${JSON.stringify(line.row)}\n`)) await once(out, 'drain')
          }
          rows += batch.rows.length
          if (batch.rows.length < BATCH) break
          after = batch.rows[batch.rows.length - 1]?.tid ?? after
        }
        out.end()
        await once(out, 'finish')
        manifest.tables[table] = { rows, columns }
        target.log(`  ${table}: ${rows.toLocaleString('en')} rows`)
      }
      await client.query('commit')
    } finally {
      client.release()
    }
    const secret = path.join(target.dataDir, 'jwt-secret')
    if (existsSync(secret)) {
      writeFileSync(path.join(stage, 'jwt-secret'), readFileSync(secret), { mode: 0o600 })
      manifest.jwt_secret = true
    }
    manifest.files = walkFiles(path.join(target.dataDir, 'files'))
    writeFileSync(path.join(stage, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`)
    const parts = ['manifest.json', 'data', ...(manifest.jwt_secret ? ['jwt-secret'] : [])]
    const files = existsSync(path.join(target.dataDir, 'files'))
    // the stored files are written straight from DATA_DIR into the archive
    execFileSync('tar', [
      '-cf',
      `${file}.part`,
      '-C',
      stage,
      ...parts,
      ...(files ? ['-C', target.dataDir, 'files'] : []),
    ])
    renameSync(`${file}.part`, file)
    return { file, manifest, bytes: statSync(file).size }
  } finally {
    rmSync(stage, { recursive: true, force: true })
    rmSync(`${file}.part`, { force: true })
    await close()
  }
}

/** Restores an archive into the configured database and DATA_DIR. */
export async function restore(target: Target, file: string, options: { force?: boolean } = {}) {
  const archive = path.resolve(file)
  if (!existsSync(archive)) throw new Error(`No such file: ${archive}`)
  let listing: string[]
  try {
    listing = execFileSync('tar', ['-tf', archive], { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .split('\n')
  } catch {
    throw new Error(`${archive} is not a Quire backup (it is not a tar archive).`)
  }
  if (!listing.includes('manifest.json'))
    throw new Error(`${archive} is not a Quire backup (it holds no manifest.json).`)
  mkdirSync(target.dataDir, { recursive: true })
  const stage = mkdtempSync(path.join(target.dataDir, '.restore-'))
  try {
    execFileSync('tar', ['-xf', archive, '-C', stage])
    const manifest = JSON.parse(readFileSync(path.join(stage, 'manifest.json'), 'utf8')) as Manifest
    if (manifest.format !== FORMAT)
      throw new Error(
        `This backup has format ${manifest.format}; this Quire reads format ${FORMAT}.`,
      )
    const shipped = shippedMigrations().length
    if (manifest.migrations > shipped)
      throw new Error(
        `This backup was made by a newer Quire (${manifest.quire_version}, ${manifest.migrations} migrations; this one has ${shipped}). Restore it with that version or newer.`,
      )
    const { database, close } = await connect(target, { refuseRunning: true })
    try {
      await runMigrations(database)
      // one transaction: a restore that fails leaves nothing behind
      await inTransaction(database.pool, async (client) => {
        const used = await client.query<{ used: boolean }>(
          'select exists (select 1 from organizations) as used',
        )
        if (used.rows[0]?.used && !options.force)
          throw new Error(
            'The database already holds data. Restoring replaces all of it: run again with --force to do so.',
          )
        const tables = await tablesOf(client)
        const known = new Map(tables.map((t) => [t.table, new Set(t.columns)]))
        for (const table of Object.keys(manifest.tables))
          if (!known.has(table))
            throw new Error(`The backup has a table this Quire lacks: ${table}`)
        // rows go in table by table: foreign keys are checked by the data's own consistency
        await client.query('set local session_replication_role = replica')
        await client.query(
          `truncate ${tables.map((t) => quote(t.table)).join(', ')} restart identity cascade`,
        )
        for (const [table, { columns, rows }] of Object.entries(manifest.tables)) {
          const present = columns.filter((column) => known.get(table)?.has(column))
          const list = present.map(quote).join(', ')
          const picks = present.map((column) => `r.${quote(column)}`).join(', ')
          const indexes = present.map((column) => columns.indexOf(column))
          let batch: unknown[][] = []
          const flush = async () => {
            if (!batch.length) return
            const objects = batch.map((row) =>
              Object.fromEntries(present.map((column, i) => [column, row[indexes[i] as number]])),
            )
            await client.query(
              `insert into ${quote(table)} (${list}) overriding system value
               select ${picks} from json_populate_recordset(null::${quote(table)}, $1::json) r`,
              [JSON.stringify(objects)],
            )
            batch = []
          }
          const lines = createInterface({
            input: createReadStream(path.join(stage, 'data', `${table}.ndjson`)),
            crlfDelay: Number.POSITIVE_INFINITY,
          })
          for await (const line of lines) {
            if (!line) continue
            batch.push(JSON.parse(line) as unknown[])
            if (batch.length >= BATCH) await flush()
          }
          await flush()
          target.log(`  ${table}: ${rows.toLocaleString('en')} rows`)
        }
        // identity columns continue after the restored ids
        const identities = await client.query<{ table: string; column: string }>(
          `select c.relname as table, a.attname as column from pg_attribute a
             join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
            where n.nspname = 'public' and a.attidentity <> '' and not a.attisdropped`,
        )
        for (const { table, column } of identities.rows) {
          await client.query(
            `select setval(pg_get_serial_sequence($1, $2), coalesce((select max(${quote(column)}) from ${quote(table)}), 0) + 1, false)`,
            [`public.${quote(table)}`, column],
          )
        }
      })
    } finally {
      await close()
    }
    // the stored files: swapped in whole, the old ones removed only once the new are in place
    const files = path.join(target.dataDir, 'files')
    const restored = path.join(stage, 'files')
    const old = path.join(stage, 'files.before')
    if (existsSync(files)) renameSync(files, old)
    if (existsSync(restored)) renameSync(restored, files)
    else mkdirSync(files, { recursive: true })
    if (manifest.jwt_secret)
      writeFileSync(
        path.join(target.dataDir, 'jwt-secret'),
        readFileSync(path.join(stage, 'jwt-secret')),
        { mode: 0o600 },
      )
    return manifest
  } finally {
    rmSync(stage, { recursive: true, force: true })
  }
}
