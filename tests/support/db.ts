import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { inject } from 'vitest'
import { type Database, openDatabase } from '../../server/db/index.ts'

/** A fresh, migrated database of its own for one test file, cloned from the run's template. */
export async function createTestDatabase(): Promise<
  Database & { url: string; drop(): Promise<void> }
> {
  const adminUrl = inject('pgAdminUrl')
  const template = inject('pgTemplate')
  const name = `test_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`create database ${name} template ${template}`)
  await admin.end()
  // the database is the URL's path, before any query (the socket directory travels in `host`)
  const url = adminUrl.replace(/\/postgres(\?|$)/, `/${name}$1`)
  const database = openDatabase(url, 5)
  return {
    ...database,
    url,
    async drop() {
      await database.close()
      const client = new pg.Client({ connectionString: adminUrl })
      await client.connect()
      await client.query(`drop database if exists ${name} with (force)`)
      await client.end()
    },
  }
}
