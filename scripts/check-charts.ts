import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { createRequire, registerHooks } from 'node:module'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

/**
 * Every machine's chart is literal (issue 43): the customer's designers open our machines in the
 * Stately visualiser, which reads the code without running it. For every `machines/**\/*.machine.ts`
 * this reads the file statically with `@xstate/machine-extractor` (the visualiser's reader), imports
 * it and walks the state nodes XState builds at run time, and fails, naming the machine and the
 * states, where the two differ. A state whose config a function (or any name but an object literal)
 * builds is invisible to the static reader: write it out, and share behaviour through the named
 * actions, guards, delays and actors of `setup()`.
 */

const root = fileURLToPath(new URL('..', import.meta.url))

// @xstate/machine-extractor 0.16 loads `xstate/lib/*` of XState 4, its peer. The project runs
// XState 5 and gives the extractor XState 4 as the `xstate-v4` devDependency: only the extractor's
// own requests are sent there.
registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier.startsWith('xstate/lib/') && context.parentURL?.includes('/machine-extractor/'))
      return nextResolve(specifier.replace(/^xstate\//, 'xstate-v4/'), context)
    return nextResolve(specifier, context)
  },
})

/** What this check reads of the extractor's answer. */
interface StaticNode {
  id?: string
  states?: Record<string, StaticNode>
}
interface Extractor {
  extractMachinesFromFile(source: string): {
    machines: ({ toConfig(): StaticNode | undefined } | undefined)[]
  } | null
}
const { extractMachinesFromFile } = createRequire(import.meta.url)(
  '@xstate/machine-extractor',
) as Extractor

/** A run-time state node, as far as this check walks it (`machine.root` of XState 5). */
interface RuntimeNode {
  states: Record<string, RuntimeNode>
  /** Its delayed transitions (`after`). */
  after?: unknown[]
  description?: string
}
interface RuntimeMachine {
  id: string
  root: RuntimeNode
}

const isMachine = (value: unknown): value is RuntimeMachine =>
  typeof value === 'object' &&
  value !== null &&
  'root' in value &&
  'idMap' in value &&
  typeof (value as { id?: unknown }).id === 'string'

/** Every state node's path below the root (`a`, `a.b`, ...), in document order. */
function pathsOf(node: { states?: Record<string, unknown> }, prefix: string[] = []): string[] {
  const found: string[] = []
  for (const [key, child] of Object.entries(node.states ?? {})) {
    const at = [...prefix, key]
    found.push(at.join('.'))
    found.push(...pathsOf(child as { states?: Record<string, unknown> }, at))
  }
  return found
}

/**
 * The machines a static reader finds in a source text, by id, each with its state paths. The
 * extractor warns on the console about values it does not model (inline params, for one): those
 * do not change which states it sees, so the warnings are kept quiet.
 */
export function staticCharts(source: string): Map<string, string[]> {
  const { warn, error, log } = console
  console.warn = console.error = console.log = () => {}
  try {
    const charts = new Map<string, string[]>()
    for (const machine of extractMachinesFromFile(source)?.machines ?? []) {
      const config = machine?.toConfig()
      if (config) charts.set(config.id ?? '(machine)', pathsOf(config))
    }
    return charts
  } finally {
    Object.assign(console, { warn, error, log })
  }
}

/** The machines a module exports, by id, each with the state paths XState builds at run time. */
export function runtimeCharts(exports: Record<string, unknown>): Map<string, string[]> {
  const charts = new Map<string, string[]>()
  for (const value of Object.values(exports))
    if (isMachine(value)) charts.set(value.id, pathsOf(value.root))
  return charts
}

/**
 * The states of a flow with timers that say nothing of themselves (issue 43): where a flow waits
 * on a clock, a designer reading its chart in the visualiser needs every state's `description`
 * to know what the wait is for. Paths of the undescribed states; none for a flow without timers.
 */
export function undescribedTimedStates(machine: RuntimeMachine): string[] {
  const nodes: [string, RuntimeNode][] = []
  const walk = (node: RuntimeNode, prefix: string[]) => {
    for (const [key, child] of Object.entries(node.states ?? {})) {
      nodes.push([[...prefix, key].join('.'), child])
      walk(child, [...prefix, key])
    }
  }
  walk(machine.root, [])
  const timed = [machine.root, ...nodes.map(([, node]) => node)].some(
    (node) => (node.after ?? []).length > 0,
  )
  return timed ? nodes.filter(([, node]) => !node.description).map(([at]) => at) : []
}

/**
 * What differs between the charts of one machine file: the static reader's and the run time's.
 * Each problem names the file and the machine; no problems when every machine shows every state.
 */
export function chartProblems(
  file: string,
  source: string,
  exports: Record<string, unknown>,
): string[] {
  const seen = staticCharts(source)
  const built = runtimeCharts(exports)
  const problems: string[] = []
  if (built.size === 0) problems.push(`${file}: exports no machine`)
  for (const [id, runtime] of built) {
    const statics = seen.get(id)
    if (!statics) {
      problems.push(
        `${file} (${id}): a static reader finds no machine: pass an object literal to createMachine`,
      )
      continue
    }
    const missing = runtime.filter((state) => !statics.includes(state))
    const extra = statics.filter((state) => !runtime.includes(state))
    if (missing.length === 0 && extra.length === 0) continue
    // counts include the root, as the visualiser draws it
    const lines = [
      `${file} (${id}): a static reader sees ${statics.length + 1} of the ${runtime.length + 1} state nodes XState runs`,
    ]
    if (missing.length) lines.push(`  not seen statically: ${missing.join(', ')}`)
    if (extra.length) lines.push(`  seen statically but not run: ${extra.join(', ')}`)
    lines.push('  write these states out as object literals; share behaviour through setup()')
    problems.push(lines.join('\n'))
  }
  for (const id of seen.keys())
    if (!built.has(id))
      problems.push(`${file} (${id}): a static reader finds a machine the module does not export`)
  for (const machine of Object.values(exports).filter(isMachine)) {
    const undescribed = undescribedTimedStates(machine)
    if (undescribed.length)
      problems.push(
        `${file} (${machine.id}): a flow with timers describes every state; no description: ${undescribed.join(', ')}`,
      )
  }
  return problems
}

/** Reads and imports one machine file (an absolute path) and checks its charts. */
export async function checkFile(file: string): Promise<string[]> {
  const name = path.relative(root, file).split(path.sep).join('/')
  const exports = (await import(pathToFileURL(file).href)) as Record<string, unknown>
  return chartProblems(name, readFileSync(file, 'utf8'), exports)
}

function machineFiles(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out
  for (const entry of readdirSync(dir).sort()) {
    const full = path.join(dir, entry)
    if (statSync(full).isDirectory()) machineFiles(full, out)
    else if (entry.endsWith('.machine.ts')) out.push(full)
  }
  return out
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const files = machineFiles(path.join(root, 'machines'))
  const problems: string[] = []
  for (const file of files) problems.push(...(await checkFile(file)))
  for (const problem of problems) console.error(problem)
  if (problems.length) {
    console.error(
      `\n${problems.length} chart problem(s): states a static reader does not see, or timed flows undescribed`,
    )
    process.exit(1)
  }
  console.log(
    `charts: ${files.length} machine files, every state literal, every timed flow described`,
  )
}
