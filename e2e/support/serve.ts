import { chmodSync, mkdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

/**
 * Playwright's web server: a fresh DATA_DIR for every run, the production build (rebuilt when
 * stale), and the real server on its embedded PostgreSQL.
 */
// under the system temp directory: PostgreSQL's system user (when running as root) can reach it
// wherever the checkout lives
const dataDir = path.join(tmpdir(), `quire-e2e-${process.env.E2E_PORT ?? '3199'}`)
rmSync(dataDir, { recursive: true, force: true })
mkdirSync(dataDir, { recursive: true })
chmodSync(dataDir, 0o755)
process.env.DATA_DIR = dataDir
process.env.PORT = process.env.E2E_PORT ?? '3199'
process.env.PUBLIC_URL = `http://localhost:${process.env.PORT}`
process.env.LOG_LEVEL = process.env.LOG_LEVEL ?? 'warn'
process.env.EMBEDDED_PG_FSYNC = 'false'
await import('../../scripts/start.ts')
