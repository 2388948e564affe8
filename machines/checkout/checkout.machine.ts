import { assign, fromPromise, setup } from 'xstate'
import { BILLING_TEXTS } from '../../contract/billing.ts'
import { errorMessage } from '../../contract/errors.ts'
import { mustBeProvidedIn } from '../actors.ts'
import type {
  CheckoutSchema,
  CreateReferenceOutput,
  InitProviderOutput,
  OpenOverlayInput,
} from './checkout.types.ts'

const mustBeProvided = mustBeProvidedIn('checkoutMachine')

const errorOf = ({ event }: { event: { error: unknown } }) => event.error

/**
 * Pricing checkout (spec section 5): starts the provider, asks the server for a reference that
 * binds the payment to the organisation, and opens the provider's overlay for the chosen price
 * with quantity 1 and the customer's email and country when known. While the payment flag is
 * off, starting the provider fails with 'Payment provider is not initialized'.
 */
export const checkoutMachine = setup({
  types: {} as CheckoutSchema,
  actors: {
    initProvider: fromPromise<InitProviderOutput>(mustBeProvided('initProvider')),
    createReference: fromPromise<CreateReferenceOutput, { priceId: string }>(
      mustBeProvided('createReference'),
    ),
    openOverlay: fromPromise<void, OpenOverlayInput>(mustBeProvided('openOverlay')),
  },
  actions: {
    fail: assign((_, error: unknown) => ({
      error: errorMessage(error, BILLING_TEXTS.checkoutFailed),
    })),
  },
}).createMachine({
  id: 'checkout',
  context: ({ input }) => ({
    priceId: input.priceId,
    email: input.email ?? null,
    countryCode: input.countryCode ?? null,
    reference: null,
    error: null,
  }),
  initial: 'initialising',
  output: ({ context }) =>
    context.error === null ? { opened: true } : { opened: false, error: context.error },
  states: {
    initialising: {
      description: 'Starts the provider; with the payment flag off it is not initialized.',
      tags: ['loading'],
      invoke: {
        id: 'initProvider',
        src: 'initProvider',
        onDone: 'referencing',
        onError: { target: 'failed', actions: { type: 'fail', params: errorOf } },
      },
    },
    referencing: {
      description: 'Asks the server for the reference the webhook maps back to the organisation.',
      tags: ['loading'],
      invoke: {
        id: 'createReference',
        src: 'createReference',
        input: ({ context }) => ({ priceId: context.priceId }),
        onDone: {
          target: 'opening',
          actions: assign({
            reference: ({ event }) => event.output.reference,
            email: ({ context, event }) => context.email ?? event.output.email,
          }),
        },
        onError: { target: 'failed', actions: { type: 'fail', params: errorOf } },
      },
    },
    opening: {
      description: "Opens the provider's overlay: the price, quantity 1, email and country.",
      tags: ['loading'],
      invoke: {
        id: 'openOverlay',
        src: 'openOverlay',
        input: ({ context }) => ({
          priceId: context.priceId,
          quantity: 1 as const,
          reference: context.reference ?? '',
          email: context.email,
          countryCode: context.countryCode,
        }),
        onDone: 'opened',
        onError: { target: 'failed', actions: { type: 'fail', params: errorOf } },
      },
    },
    opened: { description: 'The overlay is open: the pricing dialog closes.', type: 'final' },
    failed: { description: 'Checkout could not start; the reason is the output.', type: 'final' },
  },
})
