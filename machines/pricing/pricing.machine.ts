import { assign, emit, fromPromise, setup } from 'xstate'
import { mustBeProvidedIn } from '../actors.ts'
import { checkoutMachine } from '../checkout/checkout.machine.ts'
import type { CheckoutOutput } from '../checkout/checkout.types.ts'
import type { LoadPlansOutput, PricingSchema } from './pricing.types.ts'

const mustBeProvided = mustBeProvidedIn('pricingMachine')

/**
 * The 'Choose Your Plan' dialog (spec sections 2, 5, 8 and 9): closed until Settings or a limit
 * error opens it; loads the tiers ('Loading pricing plans...'), or says 'Failed to load pricing
 * information' with 'Try Again', which reloads the page. Monthly or Yearly, cards sorted by price;
 * 'Choose {base_name}' runs the checkout machine, which closes the dialog once the provider's
 * overlay is open and otherwise leaves its reason in the dialog.
 */
export const pricingMachine = setup({
  types: {} as PricingSchema,
  actors: {
    loadPlans: fromPromise<LoadPlansOutput>(mustBeProvided('loadPlans')),
    checkout: checkoutMachine,
  },
  actions: {
    reload: emit({ type: 'reload' } as const),
  },
  guards: {
    opened: (_, output: CheckoutOutput) => output.opened,
  },
}).createMachine({
  id: 'pricing',
  context: ({ input }) => ({
    period: 'monthly',
    tiers: [],
    currentTier: null,
    salesUrl: 'mailto:',
    reason: null,
    checkoutError: null,
    choosing: null,
    email: input?.email ?? null,
    countryCode: input?.countryCode ?? null,
  }),
  initial: 'closed',
  states: {
    closed: {
      description: 'No dialog.',
      on: {
        open: {
          target: 'open',
          actions: assign({
            reason: ({ event }) => event.reason ?? null,
            checkoutError: null,
          }),
        },
      },
    },
    open: {
      description: "'Choose Your Plan'.",
      initial: 'loading',
      on: { close: { target: 'closed', actions: assign({ reason: null, checkoutError: null }) } },
      states: {
        loading: {
          description: "'Loading pricing plans...'",
          tags: ['loading'],
          invoke: {
            id: 'loadPlans',
            src: 'loadPlans',
            onDone: {
              target: 'ready',
              actions: assign({
                tiers: ({ event }) => event.output.tiers,
                currentTier: ({ event }) => event.output.currentTier,
                salesUrl: ({ event }) => event.output.salesUrl,
              }),
            },
            onError: 'failed',
          },
        },
        failed: {
          description: "'Failed to load pricing information' with 'Try Again' (reloads the page).",
          on: { retry: { actions: 'reload' } },
        },
        ready: {
          description: 'The cards of the chosen period, cheapest first.',
          on: {
            'period.set': { actions: assign({ period: ({ event }) => event.period }) },
            choose: {
              target: 'checkingOut',
              actions: assign({ choosing: ({ event }) => event.priceId, checkoutError: null }),
            },
          },
        },
        checkingOut: {
          description: 'The checkout machine runs; the dialog closes once the overlay is open.',
          tags: ['busy'],
          invoke: {
            id: 'checkout',
            src: 'checkout',
            input: ({ context }) => ({
              priceId: context.choosing ?? '',
              email: context.email,
              countryCode: context.countryCode,
            }),
            onDone: [
              {
                guard: { type: 'opened', params: ({ event }) => event.output },
                target: '#pricing.closed',
                actions: assign({ choosing: null, reason: null }),
              },
              {
                target: 'ready',
                actions: assign({
                  choosing: null,
                  checkoutError: ({ event }) => (event.output.opened ? null : event.output.error),
                }),
              },
            ],
          },
        },
      },
    },
  },
})
