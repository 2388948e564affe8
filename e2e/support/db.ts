import pg from 'pg'
import { attachEmbeddedPostgres } from '../../server/db/embedded.ts'
import { DATA_DIR } from './env.ts'

/**
 * Direct SQL on the e2e server's embedded database, for what a journey cannot do through the UI:
 * move a link's expiry into the past (the server's clock cannot be moved from the browser), or flag
 * a user for a forced password change as an administrator would.
 */
export async function sql<T extends pg.QueryResultRow>(text: string, values: unknown[] = []) {
  const url = attachEmbeddedPostgres(DATA_DIR)
  if (!url) throw new Error(`no embedded PostgreSQL running for ${DATA_DIR}`)
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query<T>(text, values)).rows
  } finally {
    await client.end()
  }
}
