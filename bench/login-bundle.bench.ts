import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { buildIsStaleFor } from '../scripts/lib/build-state.ts'
import { root } from './support.ts'

/**
 * The JavaScript that /login loads first: the entry chunk and every chunk it preloads, gzip-sized
 * as served. Lazy pages are not counted: /login does not load them. Budget: 150 KB gzip.
 */
if (buildIsStaleFor(root)) {
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'ignore' })
  if (build.status !== 0) throw new Error('npm run build failed')
}
const dist = path.join(root, 'dist')
const html = readFileSync(path.join(dist, 'index.html'), 'utf8')
const scripts = [
  ...html.matchAll(/<script[^>]+src="([^"]+)"/g),
  ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g),
].map((match) => match[1] as string)
const styles = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g)].map(
  (match) => match[1] as string,
)
const gzipSize = (url: string) => {
  const file = path.join(dist, url)
  const body = readFileSync(file)
  return existsSync(`${file}.gz`)
    ? readFileSync(`${file}.gz`).byteLength
    : gzipSync(body).byteLength
}
const jsBytes = [...new Set(scripts)].reduce((sum, url) => sum + gzipSize(url), 0)
const cssBytes = styles.reduce((sum, url) => sum + gzipSize(url), 0)
console.log(
  JSON.stringify({
    bench: 'login-bundle',
    js_files: [...new Set(scripts)].length,
    js_gzip_kb: Math.round((jsBytes / 1024) * 10) / 10,
    css_gzip_kb: Math.round((cssBytes / 1024) * 10) / 10,
    budget_js_gzip_kb: 150,
    within_budget: jsBytes <= 150 * 1024,
  }),
)
