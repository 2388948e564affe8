import { expect, test } from 'vitest'
import type { AnyEventObject, AnyMachineSnapshot, AnyStateMachine, SnapshotFrom } from 'xstate'
import { offerWhileRunning } from '../support/invoked-events.ts'
import { type MachineCoverageOptions, testMachineCoverage } from '../support/machine-coverage.ts'

/**
 * The path test of a machine with invoked actors: every state and transition is reached by a
 * replayed graph path, each actor's result offered only while it runs. `identity` lists what,
 * besides the state value, tells two states apart (the traversal's state key).
 */
export function testEveryPath<TMachine extends AnyStateMachine>(
  machine: TMachine,
  events: readonly AnyEventObject[],
  {
    identity,
    title = 'every state and transition is reached by a replayed graph path',
    timeoutMs,
    ...options
  }: Omit<MachineCoverageOptions<TMachine>, 'events'> & {
    identity?: (snapshot: SnapshotFrom<TMachine>) => unknown[]
    title?: string
    /** A machine with many paths (the review workspace) takes longer than a test's default. */
    timeoutMs?: number
  } = {},
) {
  test(
    title,
    async () => {
      const report = await testMachineCoverage(machine, {
        ...options,
        events: offerWhileRunning(machine, events),
        ...(identity && {
          serializeState: (snapshot: SnapshotFrom<TMachine>) =>
            JSON.stringify([(snapshot as AnyMachineSnapshot).value, ...identity(snapshot)]),
        }),
      })
      expect(report.states.unreached).toEqual([])
      expect(report.transitions.unreached).toEqual([])
    },
    timeoutMs,
  )
}
