import {
  type AnyActorLogic,
  type AnyStateMachine,
  fromPromise,
  type MachineImplementationsFrom,
} from 'xstate'

/** The actors a machine declares in `setup({ actors })`, by name, with their logic's types. */
type Actors<TMachine extends AnyStateMachine> = NonNullable<
  MachineImplementationsFrom<TMachine>['actors']
>

/** A call that never settles: the actor runs until the machine leaves its state. */
const never = fromPromise(() => new Promise<never>(() => {}))

/**
 * The machine with every actor it declares (read from `machine.implementations.actors`) given as
 * a call that never settles, so a path test delivers each result itself
 * (`xstate.done.actor.<id>`, `xstate.error.actor.<id>`) while the actor runs. `overrides` gives
 * some actors logic of their own (a child machine whose actors are pending in turn, a quiet
 * stream).
 */
export function pendingActors<TMachine extends AnyStateMachine>(
  machine: TMachine,
  overrides: Partial<Actors<TMachine>> = {},
): TMachine {
  const given: Partial<Record<string, AnyActorLogic>> = overrides
  const declared = Object.keys(machine.implementations.actors ?? {})
  const unknown = Object.keys(given).filter((name) => !declared.includes(name))
  if (unknown.length) {
    throw new Error(`${machine.id} declares no actor ${unknown.join(', ')}`)
  }
  const actors = Object.fromEntries(declared.map((name) => [name, given[name] ?? never]))
  // the machine's own type, with its actors replaced by logic of the same names
  return machine.provide({ actors }) as TMachine
}
