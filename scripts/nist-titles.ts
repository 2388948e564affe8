import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * Writes server/answering/nist-800-53.json: the id and title of every control and enhancement of
 * the NIST SP 800-53 rev. 5 catalogues in ../shared/data/standards/ (public domain, CC0), which the
 * practice vocabulary (server/answering/practices.ts) names. Run again when the catalogues change:
 * `node scripts/nist-titles.ts [DIR]`.
 */
interface Control {
  id: string
  title: string
  controls?: Control[]
}
const root = fileURLToPath(new URL('..', import.meta.url))
const dir = process.argv[2] ?? path.resolve(root, '../shared/data/standards')
const titles: Record<string, string> = {}
for (const name of [
  'NIST_SP-800-53_rev5_HIGH-baseline_catalog.json',
  'NIST_SP-800-53_rev5_PRIVACY-baseline_catalog.json',
]) {
  const catalog = JSON.parse(readFileSync(path.join(dir, name), 'utf8')).catalog as {
    groups: { controls: Control[] }[]
  }
  const visit = (control: Control) => {
    titles[control.id] = control.title
    for (const child of control.controls ?? []) visit(child)
  }
  for (const group of catalog.groups) for (const control of group.controls) visit(control)
}
const sorted = Object.fromEntries(Object.entries(titles).sort(([a], [b]) => a.localeCompare(b)))
writeFileSync(
  path.join(root, 'server/answering/nist-800-53.json'),
  `${JSON.stringify(sorted, null, 1)}\n`,
)
console.log(`${Object.keys(sorted).length} controls`)
