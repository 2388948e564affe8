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
import {
  type Actor,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  type AnyTransitionDefinition,
  createActor,
  type EventFromLogic,
  type InputFrom,
  type InspectionEvent,
  isMachineSnapshot,
  SimulatedClock,
  type SnapshotFrom,
} from 'xstate'
import { getAdjacencyMap, getShortestPaths, getSimplePaths, getStateNodes } from './graph.ts'

/** The events a traversal may send: a fixed list, or a function of the current snapshot. */
export type CoverageEvents<TMachine extends AnyStateMachine> =
  | readonly EventFromLogic<TMachine>[]
  | ((snapshot: SnapshotFrom<TMachine>) => readonly EventFromLogic<TMachine>[])

/**
 * - `transitions` (default): the shortest path to every state, plus that path extended by every
 *   event the state accepts, so every edge of the explored graph is replayed.
 * - `shortest`: only the shortest path to every state (`getShortestPaths`).
 * - `simple`: every simple path to every state (`getSimplePaths`); grows fast, keep graphs small.
 */
export type CoverageStrategy = 'transitions' | 'shortest' | 'simple'

/** What a per-state assertion or a custom step performer gets to work with. */
export interface ReplayContext<TMachine extends AnyStateMachine> {
  actor: Actor<TMachine>
  clock: SimulatedClock
  /** The event of this step; `xstate.init` for the initial state. */
  event: AnyEventObject
  /** Position in the path; 0 is the initial state. */
  index: number
  /** The whole path as readable text. */
  path: string
  /** Events the actor emitted on this path so far. */
  emitted: readonly AnyEventObject[]
}

export type StepPerformer<TMachine extends AnyStateMachine> = (
  context: ReplayContext<TMachine>,
) => void | Promise<void>

export interface MachineCoverageOptions<TMachine extends AnyStateMachine> {
  /** Events to explore. Delayed events of the active states are added automatically. */
  events: CoverageEvents<TMachine>
  /**
   * Further events explored apart, each list in a traversal of its own: the events of orthogonal
   * regions whose every combination the graph need not walk (a dialog's open and closed beside
   * every state of a loading flow). Coverage is the union of every traversal.
   */
  apart?: readonly CoverageEvents<TMachine>[]
  /** Input for the machine. */
  input?: InputFrom<TMachine>
  /** Several inputs (e.g. to take both branches of an initial choice); coverage is their union. */
  inputs?: readonly InputFrom<TMachine>[]
  strategy?: CoverageStrategy
  /** Upper bound on traversal iterations (default 20 000); the traversal throws past it. */
  limit?: number
  /**
   * Identity of a state for the traversal and for comparing the model with the replay. Defaults to
   * value plus context; abstract away counters and ids to keep the state space finite.
   */
  serializeState?: (snapshot: SnapshotFrom<TMachine>) => string
  /** Only replay paths that end in a state satisfying this. */
  toState?: (snapshot: SnapshotFrom<TMachine>) => boolean
  /** Do not explore beyond states satisfying this. */
  stopWhen?: (snapshot: SnapshotFrom<TMachine>) => boolean
  /** Called with the real snapshot after the initial state and after every step of every path. */
  assertState?: (
    snapshot: SnapshotFrom<TMachine>,
    context: ReplayContext<TMachine>,
  ) => void | Promise<void>
  /**
   * Carry out events of a type differently from `actor.send(event)`. Keys are exact event types or
   * prefixes ending in `.*` (`'xstate.done.actor.*'`).
   */
  perform?: Readonly<Record<string, StepPerformer<TMachine>>>
}

export interface MachineCoverageReport {
  machineId: string
  /** Paths replayed (after dropping paths that are prefixes of others). */
  paths: number
  /** Steps replayed, initial states included. */
  steps: number
  states: { total: number; unreached: string[] }
  transitions: { total: number; unreached: string[] }
  /** Paths whose replay failed: the actor left the path, a timer was off, an assertion threw. */
  failures: string[]
  /**
   * Paths left off because their timers cannot fire in the generated order (the graph does not know
   * delays, so in parallel states it may ask for a later timer first). Not a failure: coverage is
   * whatever the realisable paths reach.
   */
  skipped: string[]
  /** Every state and transition reached, and no failures. */
  complete: boolean
  /** A readable account of all of the above. */
  summary: string
}

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

const DEFAULT_LIMIT = 20_000
const AFTER_PREFIX = 'xstate.after.'
const MAX_LISTED_FAILURES = 10

interface GraphStep {
  event: AnyEventObject
  state: AnyMachineSnapshot
}

interface GraphPath {
  steps: GraphStep[]
}

interface Timer {
  start: number
  delay: number
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

// ---------------------------------------------------------------------------------------------
// Path generation

function generatePaths<TMachine extends AnyStateMachine>(
  logic: AnyStateMachine,
  options: MachineCoverageOptions<TMachine>,
  serialize: (snapshot: AnyMachineSnapshot) => string,
  input: unknown,
): GraphPath[] {
  const userEvents = options.events as
    | readonly AnyEventObject[]
    | ((snapshot: AnyMachineSnapshot) => readonly AnyEventObject[])
  // A machine that reached its top-level final state takes no more events, though the pure
  // transition function would still compute some.
  const events = (snapshot: AnyMachineSnapshot): AnyEventObject[] =>
    snapshot.status !== 'active'
      ? []
      : [
          ...(typeof userEvents === 'function' ? userEvents(snapshot) : userEvents),
          ...delayedEvents(snapshot),
        ]
  const stopWhen = options.stopWhen as ((snapshot: AnyMachineSnapshot) => boolean) | undefined
  const toState = options.toState as ((snapshot: AnyMachineSnapshot) => boolean) | undefined
  const traversal = {
    events,
    serializeState: (snapshot: AnyMachineSnapshot) => serialize(snapshot),
    limit: options.limit ?? DEFAULT_LIMIT,
    input,
    ...(stopWhen ? { stopWhen } : {}),
  }

  try {
    const strategy = options.strategy ?? 'transitions'
    const paths: GraphPath[] =
      strategy === 'simple'
        ? getSimplePaths(logic, traversal)
        : strategy === 'shortest'
          ? getShortestPaths(logic, traversal)
          : extendByEveryEdge(
              getShortestPaths(logic, traversal),
              new Map(Object.entries(getAdjacencyMap(logic, traversal))),
              serialize,
            )
    return toState ? paths.filter((path) => toState(lastState(path))) : paths
  } catch (error) {
    if (error instanceof Error && error.message.includes('Traversal limit exceeded')) {
      throw new Error(
        `Traversal of machine "${logic.id}" exceeded ${traversal.limit} iterations: bound the ` +
          'state space (serializeState that drops counters and ids, fewer events) or raise limit.',
      )
    }
    throw error
  }
}

interface AdjacencyEntry {
  transitions: Record<string, GraphStep>
}

function extendByEveryEdge(
  shortest: GraphPath[],
  adjacency: ReadonlyMap<string, AdjacencyEntry>,
  serialize: (snapshot: AnyMachineSnapshot) => string,
): GraphPath[] {
  return shortest.flatMap((path) => {
    const edges = Object.values(adjacency.get(serialize(lastState(path)))?.transitions ?? {})
    return [path, ...edges.map((edge) => ({ steps: [...path.steps, edge] }))]
  })
}

/** `xstate.after.*` events of every active state node that has `after` transitions. */
function delayedEvents(snapshot: AnyMachineSnapshot): AnyEventObject[] {
  const types = new Set(
    snapshot._nodes.flatMap((node: AnyStateNode) => node.after.map((t) => t.eventType)),
  )
  return [...types].map((type) => ({ type }))
}

/** Keeps only paths that are not a prefix of a longer one: the longer replay covers them. */
function dropPrefixPaths(paths: GraphPath[]): GraphPath[] {
  const keyed = paths
    .map((path) => ({ path, keys: path.steps.slice(1).map((step) => JSON.stringify(step.event)) }))
    .sort((a, b) => b.keys.length - a.keys.length)
  const prefixes = new Set<string>()
  const kept: GraphPath[] = []
  for (const { path, keys } of keyed) {
    const key = keys.join('\n')
    if (prefixes.has(key)) continue
    kept.push(path)
    for (let length = 0; length <= keys.length; length++) {
      prefixes.add(keys.slice(0, length).join('\n'))
    }
  }
  return kept
}

// ---------------------------------------------------------------------------------------------
// Replay

interface Reached {
  states: Set<string>
  transitions: Set<AnyTransitionDefinition>
}

async function replayPath<TMachine extends AnyStateMachine>(
  logic: AnyStateMachine,
  path: GraphPath,
  input: unknown,
  options: MachineCoverageOptions<TMachine>,
  serialize: (snapshot: AnyMachineSnapshot) => string,
  reached: Reached,
): Promise<{ steps: number; failure?: string; skipped?: string }> {
  const clock = new SimulatedClock()
  const timers = new Map<string, Timer>()
  const delivered: string[] = []
  const emitted: AnyEventObject[] = []
  const description = describePath(path)
  let actorError: unknown

  const noteSnapshot = (snapshot: unknown) => {
    if (!isMachineSnapshot(snapshot)) return
    for (const node of snapshot._nodes) reached.states.add(node.id)
  }
  const inspect = (event: InspectionEvent) => {
    if (event.actorRef.sessionId !== event.rootId) return
    if (event.type === '@xstate.microstep') {
      noteSnapshot(event.snapshot)
      for (const transition of event._transitions) {
        reached.transitions.add(transition)
        reached.states.add(transition.source.id)
      }
    } else if (event.type === '@xstate.event') {
      delivered.push(event.event.type)
    } else if (event.type === '@xstate.action') {
      const timer = delayedRaise(event.action.params)
      if (timer) timers.set(timer.type, { start: clock.now(), delay: timer.delay })
    }
  }

  const actor = createActor(logic, { input, clock, inspect }) as Actor<TMachine>
  actor.subscribe({
    error: (error) => {
      actorError = error
    },
  })
  actor.on('*', (event: AnyEventObject) => {
    emitted.push(event)
  })
  actor.start()

  const fail = (index: number, message: string) => {
    actor.stop()
    return { steps: index + 1, failure: `${message}\n    path: ${description}` }
  }
  const check = async (index: number, event: AnyEventObject, expected: AnyMachineSnapshot) => {
    await settle()
    const actual = actor.getSnapshot() as AnyMachineSnapshot
    noteSnapshot(actual)
    if (actorError !== undefined || actual.status === 'error') {
      const error = String(actorError ?? actual.error)
      return `the actor failed at step ${index} (${describeEvent(event)}): ${error}`
    }
    const [want, got] = [serialize(expected), serialize(actual)]
    if (want !== got) {
      return [
        `after step ${index} (${describeEvent(event)}) the graph expects`,
        `      ${want}`,
        '    but the actor is in',
        `      ${got}`,
      ].join('\n')
    }
    try {
      await options.assertState?.(actual as SnapshotFrom<TMachine>, {
        actor,
        clock,
        event,
        index,
        path: description,
        emitted,
      })
    } catch (error) {
      return `assertState failed at step ${index} (${describeEvent(event)}): ${errorText(error)}`
    }
    return undefined
  }

  const [initial, ...steps] = path.steps
  if (!initial) return fail(0, 'the graph produced an empty path')
  noteSnapshot(actor.getSnapshot())
  const initialProblem = await check(0, initial.event, initial.state)
  if (initialProblem) return fail(0, initialProblem)

  for (const [offset, step] of steps.entries()) {
    const index = offset + 1
    const context: ReplayContext<TMachine> = {
      actor,
      clock,
      event: step.event,
      index,
      path: description,
      emitted,
    }
    const performer = findPerformer(options.perform, step.event.type)
    let problem: string | undefined
    try {
      if (performer) await performer(context)
      else if (step.event.type.startsWith(AFTER_PREFIX)) {
        const timing = advanceToTimer(actor, clock, timers, delivered, step.event.type)
        if (timing.infeasible) {
          actor.stop()
          return { steps: index, skipped: `${timing.infeasible}\n    path: ${description}` }
        }
        problem = timing.problem
      } else actor.send(step.event as EventFromLogic<TMachine>)
    } catch (error) {
      problem = `step ${index} (${describeEvent(step.event)}) threw: ${errorText(error)}`
    }
    problem ??= await check(index, step.event, step.state)
    if (problem) return fail(index, problem)
  }
  actor.stop()
  return { steps: path.steps.length }
}

/**
 * Advances the simulated clock to the moment the timer behind `type` is due: checks nothing
 * reaches the actor 1 ms before, and that the timer's own event arrives exactly on time. When
 * another of the actor's timers is due first, the generated order cannot happen: `infeasible`.
 */
function advanceToTimer(
  actor: Actor<AnyStateMachine>,
  clock: SimulatedClock,
  timers: Map<string, Timer>,
  delivered: string[],
  type: string,
): { problem?: string; infeasible?: string } {
  const pending = Object.values(actor.system.getSnapshot()._scheduledEvents)
    .filter((scheduled) => scheduled.source === actor && scheduled.target === actor)
    .map((scheduled) => scheduled.event.type)
  const timer = timers.get(type)
  if (!pending.includes(type) || !timer) {
    return { problem: `${type}: no such timer is running in this state` }
  }
  const numericDelay = /^\d+$/.test(delayToken(type)) ? Number(delayToken(type)) : undefined
  if (numericDelay !== undefined && numericDelay !== timer.delay) {
    return { problem: `${type}: the timer was scheduled for ${timer.delay} ms` }
  }
  const due = timer.start + timer.delay
  const first = pending.find((other) => {
    const otherTimer = timers.get(other)
    return other !== type && otherTimer !== undefined && otherTimer.start + otherTimer.delay <= due
  })
  if (first) return { infeasible: `${first} is due no later than ${type}` }
  const wait = due - clock.now()
  if (wait < 0) return { problem: `${type}: the timer was due ${-wait} ms ago and has not fired` }
  const before = actor.getSnapshot()
  const mark = delivered.length
  if (wait >= 1) {
    clock.increment(wait - 1)
    if (delivered.length > mark) {
      const early = delivered.slice(mark).join(', ')
      return { problem: `${type}: ${early} reached the actor before the timer was due` }
    }
    if (actor.getSnapshot() !== before) {
      return {
        problem: `${type}: the state changed 1 ms before the timer was due (${timer.delay} ms)`,
      }
    }
  }
  clock.increment(Math.min(wait, 1))
  if (delivered[mark] !== type) {
    const got = delivered.slice(mark).join(', ') || 'nothing'
    return { problem: `${type}: expected at ${timer.delay} ms, got ${got}` }
  }
  return {}
}

/** The `<delay>` part of `xstate.after.<delay>.<stateId>`. */
function delayToken(type: string): string {
  return type.slice(AFTER_PREFIX.length).split('.')[0] ?? ''
}

/** A delayed `raise` (how `after` schedules its event), from an `@xstate.action` inspection. */
function delayedRaise(params: unknown): { type: string; delay: number } | undefined {
  if (typeof params !== 'object' || params === null) return undefined
  if (!('delay' in params) || typeof params.delay !== 'number') return undefined
  if (!('event' in params) || typeof params.event !== 'object' || params.event === null) {
    return undefined
  }
  if (!('type' in params.event) || typeof params.event.type !== 'string') return undefined
  return { type: params.event.type, delay: params.delay }
}

function findPerformer<TMachine extends AnyStateMachine>(
  performers: MachineCoverageOptions<TMachine>['perform'],
  type: string,
): StepPerformer<TMachine> | undefined {
  if (!performers) return undefined
  const exact = performers[type]
  if (exact) return exact
  const match = Object.keys(performers).find(
    (key) => key.endsWith('.*') && type.startsWith(key.slice(0, -1)),
  )
  return match ? performers[match] : undefined
}

/** Lets promise-based fakes settle before the state is compared. */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 5; turn++) await Promise.resolve()
}

// ---------------------------------------------------------------------------------------------
// Definition walk and reporting

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

function describeEvent(event: AnyEventObject): string {
  const { type, ...payload } = event
  return Object.keys(payload).length ? `${type} ${JSON.stringify(payload)}` : type
}

function describePath(path: GraphPath): string {
  const events = path.steps.slice(1).map((step) => describeEvent(step.event))
  return events.length ? events.join(' → ') : '(initial state)'
}

function lastState(path: GraphPath): AnyMachineSnapshot {
  const last = path.steps[path.steps.length - 1]
  if (!last) throw new Error('empty path')
  return last.state
}

function serializeValueAndContext(snapshot: AnyMachineSnapshot): string {
  return JSON.stringify({ value: snapshot.value, context: snapshot.context })
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

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
