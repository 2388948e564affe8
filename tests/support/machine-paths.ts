import type { AnyEventObject, AnyMachineSnapshot, AnyStateMachine, AnyStateNode } from 'xstate'
import { getAdjacencyMap, getShortestPaths, getSimplePaths } from './graph.ts'
import type { MachineCoverageOptions } from './machine-coverage-types.ts'

/**
 * The paths machine-coverage.ts replays, generated from the machine's own graph, and how a path
 * and its events read in a report.
 */

const DEFAULT_LIMIT = 20_000
export const AFTER_PREFIX = 'xstate.after.'

/** One step of a path: the event sent, and the state the graph expects after it. */
export interface GraphStep {
  event: AnyEventObject
  state: AnyMachineSnapshot
}

/** A path from the initial state (its first step, `xstate.init`). */
export interface GraphPath {
  steps: GraphStep[]
}

/** The paths of one traversal (one list of events, one input), by the chosen strategy. */
export function generatePaths<TMachine extends AnyStateMachine>(
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

/** Each shortest path, and the same path extended by every edge leaving its last state. */
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
export function dropPrefixPaths(paths: GraphPath[]): GraphPath[] {
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

/** The `<delay>` part of `xstate.after.<delay>.<stateId>`. */
export function delayToken(type: string): string {
  return type.slice(AFTER_PREFIX.length).split('.')[0] ?? ''
}

/** An event as text: its type, and its payload as JSON when it has one. */
export function describeEvent(event: AnyEventObject): string {
  const { type, ...payload } = event
  return Object.keys(payload).length ? `${type} ${JSON.stringify(payload)}` : type
}

/** A path as text: its events, in order. */
export function describePath(path: GraphPath): string {
  const events = path.steps.slice(1).map((step) => describeEvent(step.event))
  return events.length ? events.join(' → ') : '(initial state)'
}

/** The state a path ends in. */
function lastState(path: GraphPath): AnyMachineSnapshot {
  const last = path.steps[path.steps.length - 1]
  if (!last) throw new Error('empty path')
  return last.state
}
