import type { AnyEventObject, AnyMachineSnapshot, AnyStateMachine } from 'xstate'
import type { CoverageEvents } from './machine-coverage.ts'

const ACTOR_RESULT = /^xstate\.(?:done|error)\.actor\.(.+)$/

/**
 * The events a coverage traversal may send, with each `xstate.done.actor.<id>` and
 * `xstate.error.actor.<id>` offered only while the invoked actor `<id>` runs: a result for an actor
 * that is not running would fail a real actor, so the graph must not ask for it.
 */
export function offerWhileRunning<TMachine extends AnyStateMachine>(
  _machine: TMachine,
  events: readonly AnyEventObject[],
): CoverageEvents<TMachine> {
  const offer = (snapshot: AnyMachineSnapshot) =>
    events.filter((event) => {
      const id = ACTOR_RESULT.exec(event.type)?.[1]
      return id === undefined || id in snapshot.children
    })
  // actor results are not among the machine's own events, so the list is typed by hand
  return offer as unknown as CoverageEvents<TMachine>
}
