import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'

/** What the web app build is made from: a change to any of these makes the build stale. */
const SOURCES = [
  'src',
  'machines',
  'contract',
  'public',
  'extension',
  'extension-src',
  'scripts/build-extension.ts',
  'index.html',
  'panda.config.ts',
  'vite.config.ts',
  'package.json',
]

function newestMtime(full: string): number {
  if (!existsSync(full)) return 0
  const stat = statSync(full)
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const child of readdirSync(full))
    newest = Math.max(newest, newestMtime(path.join(full, child)))
  return newest
}

/** True when dist/ is missing or older than any of its sources. */
export function buildIsStaleFor(root: string): boolean {
  const built = path.join(root, 'dist', 'index.html')
  if (!existsSync(built) || !existsSync(path.join(root, 'dist', 'extension', 'manifest.json')))
    return true
  const builtAt = statSync(built).mtimeMs
  return SOURCES.some((entry) => newestMtime(path.join(root, entry)) > builtAt)
}
