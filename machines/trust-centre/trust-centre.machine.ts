import { assign, fromPromise, setup } from 'xstate'
import { errorMessage, errorStatus } from '../../contract/errors.ts'
import { type PublicTrustPage, TRUST_TEXTS } from '../../contract/trust.ts'
import { mustBeProvidedIn } from '../actors.ts'

export interface TrustCentreContext {
  slug: string
  page: PublicTrustPage | null
  error: string | null
}

export type TrustCentreEvents = { type: 'retry' } | { type: 'reload' }

const mustBeProvided = mustBeProvidedIn('trustCentreMachine')

/**
 * /trust/{slug} in the browser (issue 40): reads the published page (the server's HTML showed it
 * already); an unknown or unpublished page is "not available", like the server says; a failure
 * offers a retry. `reload` reads it again (a changed NDA).
 */
export const trustCentreMachine = setup({
  types: {
    context: {} as TrustCentreContext,
    events: {} as TrustCentreEvents,
    input: {} as { slug: string },
  },
  actors: {
    loadPage: fromPromise<PublicTrustPage, { slug: string }>(mustBeProvided('loadPage')),
  },
}).createMachine({
  id: 'trustCentre',
  context: ({ input }) => ({ slug: input.slug, page: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadPage',
        src: 'loadPage',
        input: ({ context }) => ({ slug: context.slug }),
        onDone: {
          target: 'ready',
          actions: assign({ page: ({ event }) => event.output, error: null }),
        },
        onError: [
          { guard: ({ event }) => errorStatus(event.error) === 404, target: 'unavailable' },
          {
            target: 'failed',
            actions: assign({
              error: ({ event }) => errorMessage(event.error, TRUST_TEXTS.pageReadFailed),
            }),
          },
        ],
      },
    },
    ready: { on: { reload: 'loading' } },
    unavailable: { description: 'Unknown or unpublished: the same answer for both.' },
    failed: { on: { retry: 'loading' } },
  },
})
