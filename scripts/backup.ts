import path from 'node:path'
import { backup } from './backup-lib.ts'

/**
 * `npm run backup [-- FILE]`: the database and the stored files of this install in one archive
 * (default DATA_DIR/backups/quire-<time>.tar). Works while Quire runs; see docs/operations.md.
 */
const dataDir = path.resolve(process.env.DATA_DIR || './data')
try {
  const started = Date.now()
  console.log(`Backing up Quire (DATA_DIR ${dataDir})...`)
  const result = await backup(
    { dataDir, databaseUrl: process.env.DATABASE_URL || undefined, log: console.log },
    process.argv[2],
  )
  const rows = Object.values(result.manifest.tables).reduce((sum, t) => sum + t.rows, 0)
  console.log(
    `Backup written: ${result.file} (${(result.bytes / 1024 / 1024).toFixed(1)} MB; ${rows.toLocaleString('en')} rows in ${Object.keys(result.manifest.tables).length} tables, ${result.manifest.files.count.toLocaleString('en')} stored files) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  )
} catch (error) {
  console.error(`Backup failed: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}
