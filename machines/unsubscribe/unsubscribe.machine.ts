import { assign, fromPromise, setup } from 'xstate'
import { COLLABORATION_TEXTS } from '../../contract/collaboration.ts'
import { mustBeProvidedIn } from '../actors.ts'

/**
 * The one-click unsubscribe of a notification email (issue 29), without signing in: the link's
 * token is sent at once; the server answers in plain words. A link with no token, or one the
 * server refuses (a 4xx), is not valid; a failed call (offline, 5xx) may be tried again.
 */

export interface UnsubscribeContext {
  token: string
  message: string | null
}

/** The call's failure: `invalid` when the server refused the link itself. */
export interface UnsubscribeFailure {
  invalid: boolean
  message: string
}

export const unsubscribeMachine = setup({
  types: {
    context: {} as UnsubscribeContext,
    events: {} as { type: 'retry' },
    input: {} as { token?: string },
  },
  actors: {
    unsubscribe: fromPromise<{ message: string }, { token: string }>(
      mustBeProvidedIn('unsubscribeMachine')('unsubscribe'),
    ),
  },
  guards: {
    hasToken: ({ context }) => context.token !== '',
    refused: ({ event }) => Boolean((event as { error?: UnsubscribeFailure }).error?.invalid),
  },
}).createMachine({
  id: 'unsubscribe',
  context: ({ input }) => ({ token: input.token?.trim() ?? '', message: null }),
  initial: 'checking',
  states: {
    checking: {
      always: [
        { guard: 'hasToken', target: 'unsubscribing' },
        { target: 'invalid', actions: assign({ message: COLLABORATION_TEXTS.unsubscribeInvalid }) },
      ],
    },
    unsubscribing: {
      tags: 'busy',
      invoke: {
        src: 'unsubscribe',
        input: ({ context }) => ({ token: context.token }),
        onDone: {
          target: 'done',
          actions: assign(({ event }) => ({ message: event.output.message })),
        },
        onError: [
          {
            guard: 'refused',
            target: 'invalid',
            actions: assign(({ event }) => ({
              message: (event.error as UnsubscribeFailure).message,
            })),
          },
          {
            target: 'failed',
            actions: assign({
              message: 'We could not reach Quire to unsubscribe you. Please try again.',
            }),
          },
        ],
      },
    },
    done: { type: 'final' },
    invalid: { type: 'final' },
    failed: { on: { retry: 'unsubscribing' } },
  },
})
