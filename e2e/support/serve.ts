import { mkdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * Playwright's web server: a fresh DATA_DIR for every run, the production build (rebuilt when
 * stale), and the real server on its embedded PostgreSQL.
 */
const root = fileURLToPath(new URL('../..', import.meta.url))
const dataDir = path.join(root, '.tmp', 'e2e-data')
rmSync(dataDir, { recursive: true, force: true })
mkdirSync(dataDir, { recursive: true })
process.env.DATA_DIR = dataDir
process.env.PORT = process.env.E2E_PORT ?? '3199'
process.env.PUBLIC_URL = `http://localhost:${process.env.PORT}`
process.env.LOG_LEVEL = process.env.LOG_LEVEL ?? 'warn'
process.env.EMBEDDED_PG_FSYNC = 'false'
await import('../../scripts/start.ts')
