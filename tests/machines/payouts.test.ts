import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise, SimulatedClock } from 'xstate'
import { PAYOUT_POLL_ATTEMPTS, PAYOUT_POLL_MS } from '../../machines/constants.ts'
import * as view from '../../machines/payouts/index.ts'
import {
  type ConfirmPayoutOutput,
  payoutsMachine,
  selectScreen,
  selectTierName,
} from '../../machines/payouts/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const pending = pendingActors(payoutsMachine)
const processed: ConfirmPayoutOutput = {
  status: 'processed',
  transaction_status: 'completed',
  tier_name: 'Team',
}
const events: AnyEventObject[] = [
  { type: 'xstate.done.actor.confirmPayout', output: processed },
  { type: 'xstate.done.actor.confirmPayout', output: { status: 'pending' } },
  { type: 'xstate.error.actor.confirmPayout', error: new Error('400') },
]
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

function start(data: string | null, answers: (() => Promise<ConfirmPayoutOutput>)[]) {
  const clock = new SimulatedClock()
  const calls: string[] = []
  const actor = createActor(
    payoutsMachine.provide({
      actors: {
        confirmPayout: fromPromise<ConfirmPayoutOutput, { data: string }>(({ input }) => {
          calls.push(input.data)
          const next = answers.shift()
          return next ? next() : Promise.resolve({ status: 'pending' } as const)
        }),
      },
    }),
    { input: { data }, clock },
  ).start()
  return { actor, clock, calls }
}

describe('payoutsMachine', () => {
  testEveryPath(pending, events, {
    view,
    inputs: [{ data: 'txn_01h' }, { data: null }],
    identity: (snapshot) => [snapshot.context.attempts],
  })

  test('confirms the payment and shows the plan', async () => {
    const { actor, calls } = start('txn_01h', [async () => processed])
    await settle()
    expect(selectScreen(actor.getSnapshot())).toBe('success')
    expect(selectTierName(actor.getSnapshot())).toBe('Team')
    expect(calls).toEqual(['txn_01h'])
  })

  test('no data, or a refused payload, is the error screen at once', async () => {
    expect(selectScreen(start(null, []).actor.getSnapshot())).toBe('error')
    const { actor } = start('garbage', [() => Promise.reject(new Error('400'))])
    await settle()
    expect(selectScreen(actor.getSnapshot())).toBe('error')
  })

  test(`asks again every ${PAYOUT_POLL_MS} ms while pending, ${PAYOUT_POLL_ATTEMPTS} times at most`, async () => {
    const { actor, clock, calls } = start('txn_01h', [])
    await settle()
    expect(selectScreen(actor.getSnapshot())).toBe('loading')
    clock.increment(PAYOUT_POLL_MS - 1)
    await settle()
    expect(calls).toHaveLength(1)
    clock.increment(1)
    await settle()
    expect(calls).toHaveLength(2)
    for (let i = 2; i < PAYOUT_POLL_ATTEMPTS; i += 1) {
      clock.increment(PAYOUT_POLL_MS)
      await settle()
    }
    expect(calls).toHaveLength(PAYOUT_POLL_ATTEMPTS)
    expect(selectScreen(actor.getSnapshot())).toBe('error')
  })

  test('a delivery that arrives while waiting turns the page to success', async () => {
    const { actor, clock } = start('txn_01h', [
      async () => ({ status: 'pending' }),
      async () => processed,
    ])
    await settle()
    clock.increment(PAYOUT_POLL_MS)
    await settle()
    expect(selectScreen(actor.getSnapshot())).toBe('success')
  })
})
