import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The house rules of docs/architecture.md, checked on every `npm run lint`:
 * - no import cycles (type imports count: a cycle of types is still a knot in the design);
 * - each room imports only the rooms it may (the table in docs/architecture.md);
 * - no file of an HTTP area (server/modules/) or of a page (src/pages/) over 400 lines;
 * - pages only render and send events: no useEffect, no fetching of their own.
 * Prints every breach with its file and exits 1 when there is one.
 */

const root = fileURLToPath(new URL('..', import.meta.url))
export const MAX_LINES = 400

/** Which rooms a room may import from (by path prefix; the first matching room applies). */
export const ROOMS: { room: string; may: string[]; mayNot?: string[] }[] = [
  { room: 'contract/', may: ['contract/'] },
  { room: 'machines/', may: ['machines/', 'contract/'] },
  { room: 'src/', may: ['src/', 'machines/', 'contract/', 'styled-system/'] },
  // libraries without HTTP or database: they are handed what they need
  {
    room: 'server/answering/',
    may: ['server/answering/', 'contract/', 'server/logger.ts', 'server/http/errors.ts'],
  },
  {
    room: 'server/workbooks/',
    may: ['server/workbooks/', 'server/ingest/', 'contract/', 'server/logger.ts'],
  },
  {
    room: 'server/ingest/',
    may: ['server/ingest/', 'server/workbooks/', 'contract/', 'server/logger.ts'],
  },
  // one HTTP area never reaches into another's routes
  { room: 'server/', may: ['server/', 'contract/'], mayNot: ['server/modules/*/routes.ts'] },
]

const SOURCE = /\.(ts|tsx)$/
const SPECIFIER =
  /(?:^|[\s;])(?:import|export)\s(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g

function walk(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry)
    if (statSync(full).isDirectory()) walk(full, out)
    else if (SOURCE.test(entry) && !entry.endsWith('.d.ts')) out.push(full)
  }
  return out
}

/** The relative imports of a file, as repository paths. */
export function importsOf(file: string, text: string): string[] {
  const found: string[] = []
  for (const match of text.matchAll(SPECIFIER)) {
    const spec = match[1] ?? match[2]
    if (!spec?.startsWith('.')) continue
    let target = path.resolve(path.dirname(file), spec)
    if (!existsSync(target) || statSync(target).isDirectory()) {
      const candidate = ['.ts', '.tsx', '/index.ts', '/index.tsx']
        .map((ext) => target + ext)
        .find((name) => existsSync(name))
      if (candidate) target = candidate
    }
    found.push(path.relative(root, target).split(path.sep).join('/'))
  }
  return found
}

/** Strongly connected groups of more than one file (Tarjan), each a cycle to break. */
export function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (node: string) => {
    index.set(node, counter)
    low.set(node, counter)
    counter += 1
    stack.push(node)
    onStack.add(node)
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue
      if (!index.has(next)) {
        visit(next)
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number))
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number))
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = []
      let member: string | undefined
      do {
        member = stack.pop() as string
        onStack.delete(member)
        group.push(member)
      } while (member !== node)
      if (group.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(group.sort())
    }
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node)
  return found
}

const globToRegExp = (glob: string) =>
  new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]+')}$`)

/** Every breach of the house rules in the given files (repository paths with their text). */
export function breaches(files: Map<string, string>): string[] {
  const problems: string[] = []
  const graph = new Map<string, string[]>()
  for (const [file, text] of files) {
    const imports = importsOf(path.join(root, file), text)
    graph.set(file, imports)
    const rule = ROOMS.find((candidate) => file.startsWith(candidate.room))
    if (rule) {
      for (const target of imports) {
        if (target.startsWith('node_modules/')) continue
        const allowed = rule.may.some((prefix) => target.startsWith(prefix))
        const sameArea =
          target.split('/').slice(0, 3).join('/') === file.split('/').slice(0, 3).join('/')
        const refused = (rule.mayNot ?? []).some(
          (glob) => globToRegExp(glob).test(target) && !sameArea && file !== 'server/app.ts',
        )
        if (!allowed || refused) problems.push(`${file}: may not import ${target}`)
      }
    }
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
    if ((file.startsWith('server/modules/') || file.startsWith('src/pages/')) && lines > MAX_LINES)
      problems.push(`${file}: ${lines} lines, more than ${MAX_LINES}: split it by concern`)
    if (file.startsWith('src/pages/')) {
      if (/\buseEffect\b/.test(text))
        problems.push(`${file}: useEffect in a page: the machine does this work (an actor)`)
      if (/from\s+['"]ofetch['"]/.test(text) || imports.some((t) => t === 'src/api/client.ts'))
        problems.push(`${file}: a page calls the API itself: give the call to its machine's actor`)
    }
  }
  for (const group of cycles(graph)) problems.push(`import cycle: ${group.join(' -> ')}`)
  return problems
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const files = new Map<string, string>()
  for (const dir of ['contract', 'machines', 'src', 'server'])
    for (const file of walk(path.join(root, dir)))
      files.set(path.relative(root, file).split(path.sep).join('/'), readFileSync(file, 'utf8'))
  const problems = breaches(files)
  for (const problem of problems) console.error(problem)
  if (problems.length) {
    console.error(`\n${problems.length} breach(es) of the house rules (docs/architecture.md)`)
    process.exit(1)
  }
  console.log(`house rules: ${files.size} files, no cycles, rooms respected`)
}
