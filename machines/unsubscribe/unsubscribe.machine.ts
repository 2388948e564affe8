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

/** The server refused the link itself (a 4xx). */
const isRefusal = (error: unknown): error is UnsubscribeFailure =>
  typeof error === 'object' && error !== null && 'invalid' in error && error.invalid === true

const errorOf = ({ event }: { event: { error: unknown } }) => event.error

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
    refused: (_, error: unknown) => isRefusal(error),
  },
  actions: {
    showRefusal: assign((_, error: unknown) => ({
      message: isRefusal(error) ? error.message : COLLABORATION_TEXTS.unsubscribeInvalid,
    })),
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
            guard: { type: 'refused', params: errorOf },
            target: 'invalid',
            actions: { type: 'showRefusal', params: errorOf },
          },
          {
            target: 'failed',
            actions: assign({ message: COLLABORATION_TEXTS.unsubscribeFailed }),
          },
        ],
      },
    },
    done: { type: 'final' },
    invalid: { type: 'final' },
    failed: { on: { retry: 'unsubscribing' } },
  },
})
