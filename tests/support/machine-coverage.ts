/**
 * Graph coverage for XState machines.
 *
 * 1. Paths come from the machine's own graph (`getShortestPaths`, and with the default strategy one
 *    extra step per outgoing edge, so every edge of the explored graph ends some path).
 * 2. Every path is replayed on a real actor with a `SimulatedClock`. A delayed event
 *    (`xstate.after.<delay>.<stateId>`) is never sent: the clock is advanced to the moment the
 *    actor's own timer is due, and the step fails if anything happens 1 ms earlier or if the timer
 *    does not fire exactly then.
 * 3. Coverage is read from the real actor (its inspection microsteps), not from the model: every
 *    state node and every transition of the definition (`on`, `always`, `after`, `onDone`, invoke
 *    results) must have been taken by at least one replayed path.
 *
 * Machines with actors: pass the machine already `provide`d with fakes. Fakes that never settle,
 * plus paths that deliver the `xstate.done.actor.<id>` and `xstate.error.actor.<id>` events, keep
 * the model and the actor in step; `perform` can replace how any event type is carried out.
 */
import type {
  AnyMachineSnapshot,
  AnyStateMachine,
  AnyStateNode,
  AnyTransitionDefinition,
} from 'xstate'
import { getStateNodes } from './graph.ts'
import type { MachineCoverageOptions, MachineCoverageReport } from './machine-coverage-types.ts'
import { AFTER_PREFIX, delayToken, dropPrefixPaths, generatePaths } from './machine-paths.ts'
import { replayPath } from './machine-replay.ts'

// The options, the report and what a step gets are typed in machine-coverage-types.ts; path
// generation is in machine-paths.ts and the replay on a real actor in machine-replay.ts.
export type * from './machine-coverage-types.ts'

const MAX_LISTED_FAILURES = 10

/** Thrown by testMachineCoverage when coverage is short of 100%: its message is the summary. */
export class MachineCoverageError extends Error {
  readonly report: MachineCoverageReport

  constructor(report: MachineCoverageReport) {
    super(report.summary)
    this.name = 'MachineCoverageError'
    this.report = report
  }
}

/** Measures coverage and throws a `MachineCoverageError` (with the readable report) unless 100%. */
export async function testMachineCoverage<TMachine extends AnyStateMachine>(
  machine: TMachine,
  options: MachineCoverageOptions<TMachine>,
): Promise<MachineCoverageReport> {
  const report = await measureMachineCoverage(machine, options)
  if (!report.complete) throw new MachineCoverageError(report)
  return report
}

/** Measures coverage without throwing. */
export async function measureMachineCoverage<TMachine extends AnyStateMachine>(
  machine: TMachine,
  options: MachineCoverageOptions<TMachine>,
): Promise<MachineCoverageReport> {
  const logic: AnyStateMachine = machine
  const customSerialize = options.serializeState as
    | ((snapshot: AnyMachineSnapshot) => string)
    | undefined
  const serialize = customSerialize ?? serializeValueAndContext
  const inputs: readonly unknown[] = options.inputs ?? [options.input]
  const reachedStates = new Set<string>()
  const reachedTransitions = new Set<AnyTransitionDefinition>()
  const failures: string[] = []
  const skipped: string[] = []
  let pathCount = 0
  let stepCount = 0

  const traversals = [options, ...(options.apart ?? []).map((events) => ({ ...options, events }))]
  for (const [input, traversal] of inputs.flatMap((input) =>
    traversals.map((traversal) => [input, traversal] as const),
  )) {
    const paths = dropPrefixPaths(generatePaths(logic, traversal, serialize, input))
    for (const path of paths) {
      pathCount += 1
      const result = await replayPath(logic, path, input, options, serialize, {
        states: reachedStates,
        transitions: reachedTransitions,
      })
      stepCount += result.steps
      if (result.failure) failures.push(result.failure)
      if (result.skipped) skipped.push(result.skipped)
    }
  }

  const nodes = getStateNodes(logic.root)
  const unreachedStates = nodes.map((node) => node.id).filter((id) => !reachedStates.has(id))
  const transitions = allTransitions([logic.root, ...nodes])
  const unreachedTransitions = transitions
    .filter(({ transition }) => !reachedTransitions.has(transition))
    .map(({ label }) => label)

  const report: MachineCoverageReport = {
    machineId: logic.id,
    paths: pathCount,
    steps: stepCount,
    states: { total: nodes.length, unreached: unreachedStates },
    transitions: { total: transitions.length, unreached: unreachedTransitions },
    failures,
    skipped,
    complete: !unreachedStates.length && !unreachedTransitions.length && !failures.length,
    summary: '',
  }
  report.summary = summarize(report)
  return report
}

/** Every transition of the definition, each labelled (a repeated label numbered). */
function allTransitions(
  nodes: readonly AnyStateNode[],
): { transition: AnyTransitionDefinition; label: string }[] {
  const seen = new Map<string, number>()
  return nodes.flatMap((node) =>
    [...[...node.transitions.values()].flat(), ...(node.always ?? [])].map((transition) => {
      const base = describeTransition(transition)
      const count = (seen.get(base) ?? 0) + 1
      seen.set(base, count)
      return { transition, label: count === 1 ? base : `${base} (#${count})` }
    }),
  )
}

/** A transition as text: its source, trigger, guard and targets. */
function describeTransition(transition: AnyTransitionDefinition): string {
  const { source, eventType, guard, target } = transition
  const trigger = source.always?.includes(transition)
    ? 'always'
    : eventType.startsWith(AFTER_PREFIX)
      ? `after ${'delay' in transition ? describeDelay(transition.delay) : delayToken(eventType)}`
      : `on ${eventType}`
  const guardText = guard === undefined ? '' : ` [${describeGuard(guard)}]`
  const targets = target?.length ? target.map((node) => node.id).join(', ') : '(no target)'
  return `${source.id} ${trigger}${guardText} -> ${targets}`
}

function describeDelay(delay: unknown): string {
  return typeof delay === 'string' || typeof delay === 'number' ? String(delay) : 'delay expression'
}

function describeGuard(guard: unknown): string {
  if (typeof guard === 'string') return guard
  if (typeof guard === 'object' && guard !== null && 'type' in guard) return String(guard.type)
  if (typeof guard === 'function') return guard.name || 'inline guard'
  return 'guard'
}

/** The default identity of a state: its value and context. */
function serializeValueAndContext(snapshot: AnyMachineSnapshot): string {
  return JSON.stringify({ value: snapshot.value, context: snapshot.context })
}

/** The readable account of a report. */
function summarize(report: MachineCoverageReport): string {
  const lines = [
    `Machine "${report.machineId}": ${report.paths} paths, ${report.steps} steps replayed.`,
    section('states', report.states.total, report.states.unreached),
    section('transitions', report.transitions.total, report.transitions.unreached),
  ]
  if (report.failures.length) {
    lines.push(`Replay failures (${report.failures.length}):`)
    for (const failure of report.failures.slice(0, MAX_LISTED_FAILURES))
      lines.push(`  - ${failure}`)
    if (report.failures.length > MAX_LISTED_FAILURES) {
      lines.push(`  ... and ${report.failures.length - MAX_LISTED_FAILURES} more`)
    }
  }
  if (report.skipped.length) {
    lines.push(
      `Skipped ${report.skipped.length} paths whose timers cannot fire in that order, e.g.:`,
      `  - ${report.skipped[0]}`,
    )
  }
  lines.push(report.complete ? 'Coverage: 100%.' : 'Coverage incomplete.')
  return lines.join('\n')
}

function section(name: string, total: number, unreached: readonly string[]): string {
  const head = `${name}: ${total - unreached.length}/${total} reached`
  return unreached.length
    ? `${head}; unreached:\n${unreached.map((item) => `  - ${item}`).join('\n')}`
    : `${head}.`
}
