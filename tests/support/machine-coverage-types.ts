import type {
  Actor,
  AnyEventObject,
  AnyStateMachine,
  EventFromLogic,
  InputFrom,
  SimulatedClock,
  SnapshotFrom,
} from 'xstate'

/**
 * The types of machine-coverage.ts's options and report, apart so that its path generation
 * (machine-paths.ts) and replay (machine-replay.ts) can use them without importing it back.
 * Import them from machine-coverage.ts, which re-exports them.
 */

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
