import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { startEmbeddedPostgres } from '../../server/db/embedded.ts'
import { openDatabase, runMigrations } from '../../server/db/index.ts'

/**
 * One embedded PostgreSQL per test run. A template database is migrated once; each test file
 * clones it into a fresh database of its own (tests/support/db.ts).
 */

export const TEMPLATE_DB = 'quire_template'

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string
    pgTemplate: string
  }
}

export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'quire-test-pg-'))
  // the postgres system user (when running as root) must be able to enter the directory
  const { chmodSync } = await import('node:fs')
  chmodSync(dataDir, 0o755)
  const cluster = await startEmbeddedPostgres({ dataDir, database: TEMPLATE_DB, fsync: false })
  const database = openDatabase(cluster.url, 2)
  await runMigrations(database)
  await database.close()
  // a template must have no open connections when cloned
  const admin = new pg.Client({ connectionString: cluster.urlFor('postgres') })
  await admin.connect()
  await admin.query(`alter database ${TEMPLATE_DB} is_template true`)
  await admin.end()

  project.provide('pgAdminUrl', cluster.urlFor('postgres'))
  project.provide('pgTemplate', TEMPLATE_DB)

  return async () => {
    await cluster.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
