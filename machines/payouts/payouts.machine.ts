import { assign, fromPromise, setup } from 'xstate'
import { mustBeProvidedIn } from '../actors.ts'
import { PAYOUT_POLL_ATTEMPTS, PAYOUT_POLL_MS } from '../constants.ts'
import type { ConfirmPayoutOutput, PayoutsSchema } from './payouts.types.ts'

const mustBeProvided = mustBeProvidedIn('payoutsMachine')

/**
 * The payment landing page /payouts?data (spec sections 2, 5 and 8): loading, then success or
 * error ('Failed to process webhook'), each with 'Return to Dashboard'. It POSTs {data} to the
 * webhook; while the provider's signed delivery has not arrived yet the server answers pending,
 * and the page asks again every PAYOUT_POLL_MS, PAYOUT_POLL_ATTEMPTS times at most.
 */
export const payoutsMachine = setup({
  types: {} as PayoutsSchema,
  actors: {
    confirmPayout: fromPromise<ConfirmPayoutOutput, { data: string }>(
      mustBeProvided('confirmPayout'),
    ),
  },
  guards: {
    noData: ({ context }) => !context.data,
    processed: (_, output: ConfirmPayoutOutput) => output.status === 'processed',
    outOfAttempts: ({ context }) => context.attempts >= PAYOUT_POLL_ATTEMPTS,
  },
  delays: { poll: PAYOUT_POLL_MS },
}).createMachine({
  id: 'payouts',
  context: ({ input }) => ({ data: input.data?.trim() || null, attempts: 0, tierName: null }),
  initial: 'loading',
  states: {
    loading: {
      description: 'Confirms the payment with the server. No data: an error at once.',
      tags: ['loading'],
      always: { guard: 'noData', target: 'error' },
      entry: assign({ attempts: ({ context }) => context.attempts + 1 }),
      invoke: {
        id: 'confirmPayout',
        src: 'confirmPayout',
        input: ({ context }) => ({ data: context.data ?? '' }),
        onDone: [
          {
            guard: { type: 'processed', params: ({ event }) => event.output },
            target: 'success',
            actions: assign({ tierName: ({ event }) => event.output.tier_name ?? null }),
          },
          { target: 'waiting' },
        ],
        onError: 'error',
      },
    },
    waiting: {
      description: 'The delivery is on its way: asks again after a pause, a few times at most.',
      tags: ['loading'],
      always: { guard: 'outOfAttempts', target: 'error' },
      after: { poll: 'loading' },
    },
    success: { description: "The plan is paid: 'Return to Dashboard'.", type: 'final' },
    error: { description: "'Failed to process webhook': 'Return to Dashboard'.", type: 'final' },
  },
})
