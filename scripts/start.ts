import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * `npm start`: build the web app when the build is missing or older than its sources, then start
 * the server (embedded PostgreSQL unless DATABASE_URL is set).
 */

const root = fileURLToPath(new URL('..', import.meta.url))
const SOURCES = [
  'src',
  'machines',
  'contract',
  'public',
  'index.html',
  'panda.config.ts',
  'vite.config.ts',
  'package.json',
]

function newestMtime(entry: string): number {
  const full = path.join(root, entry)
  if (!existsSync(full)) return 0
  const stat = statSync(full)
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const child of readdirSync(full)) {
    newest = Math.max(newest, newestMtime(path.join(entry, child)))
  }
  return newest
}

export function buildIsStale(): boolean {
  const built = path.join(root, 'dist', 'index.html')
  if (!existsSync(built)) return true
  const builtAt = statSync(built).mtimeMs
  return SOURCES.some((entry) => newestMtime(entry) > builtAt)
}

if (buildIsStale()) {
  console.log('Building the web app (the build is missing or older than its sources)...')
  const result = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' })
  if (result.status !== 0) {
    console.error('The web app build failed; see the output above.')
    process.exit(result.status ?? 1)
  }
}

await import('../server/main.ts')
