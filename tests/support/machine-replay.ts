import {
  type Actor,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyTransitionDefinition,
  createActor,
  type EventFromLogic,
  type InspectionEvent,
  isMachineSnapshot,
  SimulatedClock,
  type SnapshotFrom,
} from 'xstate'
import type {
  MachineCoverageOptions,
  ReplayContext,
  StepPerformer,
} from './machine-coverage-types.ts'
import {
  AFTER_PREFIX,
  delayToken,
  describeEvent,
  describePath,
  type GraphPath,
} from './machine-paths.ts'

/**
 * A generated path replayed on a real actor with a simulated clock: each step sent (or carried
 * out by a performer), delayed events fired by advancing the clock to their timer, and the actor's
 * state compared with the graph's after every step. What the actor took is noted as reached.
 */

/** A running `after` timer: when it was started on the simulated clock, and its delay. */
interface Timer {
  start: number
  delay: number
}

/** The state nodes and transitions the replays have taken so far. */
export interface Reached {
  states: Set<string>
  transitions: Set<AnyTransitionDefinition>
}

/**
 * Replays one path on a fresh actor, noting into `reached` what it takes. Answers the steps replayed
 * and, when the replay left the path, the failure (or, when its timers cannot fire in that order,
 * why it was skipped).
 */
export async function replayPath<TMachine extends AnyStateMachine>(
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

/** The performer of an event type: an exact key, else a `prefix.*` key that matches. */
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

/** An error as text: its message, else the thing thrown. */
function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
