import {
  type Actor,
  type AnyEventObject,
  type AnyStateMachine,
  createActor,
  fromPromise,
  type InputFrom,
  SimulatedClock,
  type SnapshotFrom,
} from 'xstate'

/**
 * Starts a machine whose page makes one call by itself (a link's confirmation, a sign-in
 * callback) on a simulated clock, its actor `name` answered by `answer`: what it was asked,
 * what it emitted, and its clock to move.
 */
export function startWithCall<TRequest, TResult, TMachine extends AnyStateMachine>(
  machine: TMachine,
  name: string,
  input: InputFrom<TMachine>,
  answer: (request: TRequest) => Promise<TResult>,
) {
  const calls: TRequest[] = []
  const clock = new SimulatedClock()
  const call = fromPromise<TResult, TRequest>(({ input: request }) => {
    calls.push(request)
    return answer(request)
  })
  // the machine's own type, with one actor given
  const provided = machine.provide({ actors: { [name]: call } }) as TMachine
  const actor: Actor<TMachine> = createActor(provided, { input, clock })
  const emitted: AnyEventObject[] = []
  actor.on('*', (event: AnyEventObject) => emitted.push(event))
  actor.start()
  return {
    actor,
    calls,
    clock,
    emitted,
    snapshot: (): SnapshotFrom<TMachine> => actor.getSnapshot(),
  }
}

/** Lets promise-based fakes settle. */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 0))
