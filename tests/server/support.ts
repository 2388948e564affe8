import { createApp } from '../../server/app.ts'
import { createLogger } from '../../server/logger.ts'
import { createTestDatabase } from '../support/db.ts'

/** An app on a fresh database of its own, with logs silenced. */
export async function createTestApp(options: { distDir?: string } = {}) {
  const database = await createTestDatabase()
  const app = createApp({
    database,
    logger: createLogger('silent'),
    version: 'test',
    embedded: true,
    distDir: options.distDir,
    publicUrl: 'http://localhost:3000',
  })
  return { app, database, close: () => database.drop() }
}
