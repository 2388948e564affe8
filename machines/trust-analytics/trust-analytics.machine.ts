import { assign, fromPromise, setup } from 'xstate'
import { errorMessage } from '../../contract/errors.ts'
import { TRUST_TEXTS, type TrustAnalytics } from '../../contract/trust.ts'
import { mustBeProvidedIn } from '../actors.ts'

/** The periods an admin may look at, in days. */
export const TRUST_PERIODS = [7, 30, 90, 365] as const
export type TrustPeriod = (typeof TRUST_PERIODS)[number]

export interface TrustAnalyticsContext {
  days: TrustPeriod
  analytics: TrustAnalytics | null
  error: string | null
}

export type TrustAnalyticsEvents = { type: 'period'; days: TrustPeriod } | { type: 'retry' }

const mustBeProvided = mustBeProvidedIn('trustAnalyticsMachine')

/**
 * Settings → Trust centre, analytics (issue 40, admins): views, requests, approvals and downloads
 * per day, per document and per company over the chosen period (30 days at first). A failure
 * keeps the figures shown, says so and offers a retry.
 */
export const trustAnalyticsMachine = setup({
  types: {
    context: {} as TrustAnalyticsContext,
    events: {} as TrustAnalyticsEvents,
    tags: {} as 'loading',
  },
  actors: {
    loadAnalytics: fromPromise<TrustAnalytics, { days: number }>(mustBeProvided('loadAnalytics')),
  },
}).createMachine({
  id: 'trustAnalytics',
  context: { days: 30, analytics: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'loadAnalytics',
        src: 'loadAnalytics',
        input: ({ context }) => ({ days: context.days }),
        onDone: {
          target: 'ready',
          actions: assign({ analytics: ({ event }) => event.output, error: null }),
        },
        onError: {
          target: 'failed',
          actions: assign({
            error: ({ event }) => errorMessage(event.error, TRUST_TEXTS.figuresFailed),
          }),
        },
      },
      on: {
        period: {
          target: 'loading',
          reenter: true,
          actions: assign({ days: ({ event }) => event.days }),
        },
      },
    },
    ready: {
      on: { period: { target: 'loading', actions: assign({ days: ({ event }) => event.days }) } },
    },
    failed: {
      on: {
        retry: 'loading',
        period: { target: 'loading', actions: assign({ days: ({ event }) => event.days }) },
      },
    },
  },
})
