import path from 'node:path'
import { restore } from './backup-lib.ts'

/**
 * `npm run restore -- FILE [--force]`: puts a backup made by `npm run backup` back: the database
 * (all of it replaced; --force when it already holds data) and the stored files. Stop Quire first.
 */
const args = process.argv.slice(2)
const force = args.includes('--force')
const file = args.find((arg) => !arg.startsWith('--'))
if (!file) {
  console.error('Usage: npm run restore -- FILE [--force]')
  process.exit(2)
}
const dataDir = path.resolve(process.env.DATA_DIR || './data')
try {
  const started = Date.now()
  console.log(`Restoring ${file} into DATA_DIR ${dataDir}...`)
  const manifest = await restore(
    { dataDir, databaseUrl: process.env.DATABASE_URL || undefined, log: console.log },
    file,
    { force },
  )
  console.log(
    `Restored the backup of ${manifest.created_at} (Quire ${manifest.quire_version}; ${manifest.files.count.toLocaleString('en')} stored files) in ${((Date.now() - started) / 1000).toFixed(1)} s. Start Quire with npm start.`,
  )
} catch (error) {
  console.error(`Restore failed: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}
