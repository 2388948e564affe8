import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** `npm run bench`: runs every bench/*.bench.ts in turn; each prints one JSON line of figures. */
const dir = fileURLToPath(new URL('.', import.meta.url))
const only = process.argv[2]
let failed = 0
for (const file of readdirSync(dir)
  .filter((name) => name.endsWith('.bench.ts'))
  .sort()) {
  if (only && !file.includes(only)) continue
  const result = spawnSync(process.execPath, [path.join(dir, file)], { stdio: 'inherit' })
  if (result.status !== 0) {
    failed += 1
    console.error(`${file} failed (exit ${result.status})`)
  }
}
process.exit(failed ? 1 : 0)
