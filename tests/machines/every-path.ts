import { expect, test } from 'vitest'
import type { AnyEventObject, AnyMachineSnapshot, AnyStateMachine, SnapshotFrom } from 'xstate'
import { offerWhileRunning } from '../support/invoked-events.ts'
import {
  type MachineCoverageOptions,
  type ReplayContext,
  testMachineCoverage,
} from '../support/machine-coverage.ts'
import {
  checkView,
  machineTags,
  type ViewCheckExceptions,
  type ViewSource,
  viewSelectors,
} from '../support/view-check.ts'

type StateAssertion<TMachine extends AnyStateMachine> = (
  snapshot: SnapshotFrom<TMachine>,
  context: ReplayContext<TMachine>,
) => void | Promise<void>

/**
 * What checks every state a path reaches: the machine's `view` (its `index.ts` module, or its
 * view maps), read by the default check (`checkView`: every selector reads the state, a selector
 * named after a tag reports it exactly where the state carries it, an error in the context is
 * shown), an `assertState` of the test's own, or both; one of them is required. Where the default
 * finds a machine saying something else on purpose, `except` leaves that rule to the test's own
 * `assertState`, which states what the machine does instead (say why beside it).
 */
type StateChecks<TMachine extends AnyStateMachine> =
  | { view: ViewSource; assertState?: StateAssertion<TMachine>; except?: undefined }
  | { view?: ViewSource; assertState: StateAssertion<TMachine>; except?: ViewCheckExceptions }

export type EveryPathOptions<TMachine extends AnyStateMachine> = Omit<
  MachineCoverageOptions<TMachine>,
  'events' | 'apart' | 'assertState'
> &
  StateChecks<TMachine> & {
    identity?: (snapshot: SnapshotFrom<TMachine>) => unknown[]
    title?: string
    /** A machine with many paths (the review workspace) takes longer than a test's default. */
    timeoutMs?: number
    /**
     * Events of orthogonal regions explored apart from `events`, each list in a traversal of its
     * own (see `MachineCoverageOptions.apart`); coverage is the union.
     */
    apart?: readonly (readonly AnyEventObject[])[]
  }

/**
 * The path test of a machine with invoked actors: every state and transition is reached by a
 * replayed graph path, each actor's result offered only while it runs, and every state of every
 * path is checked (see `StateChecks`). `identity` lists what, besides the state value, tells two
 * states apart (the traversal's state key).
 */
export function testEveryPath<TMachine extends AnyStateMachine>(
  machine: TMachine,
  events: readonly AnyEventObject[],
  {
    identity,
    title = 'every state and transition is reached by a replayed graph path',
    timeoutMs,
    view,
    assertState,
    except,
    apart,
    ...options
  }: EveryPathOptions<TMachine>,
) {
  const selectors = view && viewSelectors(view)
  const tags = machineTags(machine).filter((tag) => !except?.tags?.includes(tag))
  const errors = !except?.errors
  // each path replays on an actor of its own: the state its last step left
  const previous = new WeakMap<object, AnyMachineSnapshot>()
  test(
    title,
    async () => {
      const report = await testMachineCoverage(machine, {
        ...options,
        events: offerWhileRunning(machine, events),
        ...(apart && { apart: apart.map((more) => offerWhileRunning(machine, more)) }),
        ...(identity && {
          serializeState: (snapshot: SnapshotFrom<TMachine>) =>
            JSON.stringify([(snapshot as AnyMachineSnapshot).value, ...identity(snapshot)]),
        }),
        assertState: async (snapshot, context) => {
          const state = snapshot as AnyMachineSnapshot
          if (selectors) {
            const before = context.index === 0 ? undefined : previous.get(context.actor)
            checkView(state, selectors, { tags, errors, before })
          }
          previous.set(context.actor, state)
          await assertState?.(snapshot, context)
        },
      })
      expect(report.states.unreached).toEqual([])
      expect(report.transitions.unreached).toEqual([])
    },
    timeoutMs,
  )
}
