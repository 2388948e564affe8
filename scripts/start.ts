import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { buildIsStaleFor } from './lib/build-state.ts'

/**
 * `npm start`: build the web app when the build is missing or older than its sources, then start
 * the server (embedded PostgreSQL unless DATABASE_URL is set). QUIRE_SKIP_BUILD=1 starts without
 * building (the tests that start it as an operator would, before any build exists).
 */

const root = fileURLToPath(new URL('..', import.meta.url))

if (process.env.QUIRE_SKIP_BUILD !== '1' && buildIsStaleFor(root)) {
  console.log('Building the web app (the build is missing or older than its sources)...')
  const result = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' })
  if (result.status !== 0) {
    console.error('The web app build failed; see the output above.')
    process.exit(result.status ?? 1)
  }
}

await import('../server/main.ts')
