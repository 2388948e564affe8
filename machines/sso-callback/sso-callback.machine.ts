import { assign, emit, fromPromise, setup } from 'xstate'
import type { AccessClaims } from '../../contract/auth.ts'
import { SSO_CALLBACK_TEXTS } from '../../contract/sso.ts'
import { failureOf, type RequestFailure } from '../account.ts'
import { mustBeProvidedIn } from '../actors.ts'
import { SSO_SUCCESS_REDIRECT_MS } from '../constants.ts'

export interface SsoCallbackInput {
  code?: string | null
  error?: string | null
  error_description?: string | null
}

export type SsoCallbackEmitted =
  /** The view tells the session (`session.login`). */
  | { type: 'signedIn'; claims: AccessClaims }
  /** The view navigates; `replace` replaces the history entry. */
  | { type: 'navigate'; to: '/' | '/login'; replace: boolean }

const mustBeProvided = mustBeProvidedIn('ssoCallbackMachine')

/**
 * /auth/callback (spec sections 2, 5 and 8): the identity provider's return, through Quire's
 * server, with a one-time code. processing exchanges it (admin/sso/exchange/) and signs in;
 * success goes to / after 1.5 s replacing history; error shows the provider's error_description
 * or error, 'No authorization code received', the server's error or 'Unknown error occurred',
 * with 'Try Again' going to /login.
 */
export const ssoCallbackMachine = setup({
  types: {
    context: {} as { code: string | null; error: string | null },
    input: {} as SsoCallbackInput,
    events: {} as { type: 'retry' },
    emitted: {} as SsoCallbackEmitted,
    tags: {} as 'loading',
  },
  actors: {
    exchangeCode: fromPromise<AccessClaims, { code: string }>(mustBeProvided('exchangeCode')),
  },
  actions: {
    signIn: emit((_, claims: AccessClaims) => ({ type: 'signedIn' as const, claims })),
    goHome: emit({ type: 'navigate', to: '/', replace: true } as const),
    goToLogin: emit({ type: 'navigate', to: '/login', replace: false } as const),
    showFailure: assign((_, failure: RequestFailure) => ({
      error: failure.error ?? failure.msg ?? failure.detail ?? SSO_CALLBACK_TEXTS.unknown,
    })),
  },
  guards: {
    noCode: ({ context }) => !context.code,
    providerError: ({ context }) => context.error !== null,
  },
  delays: { successRedirect: SSO_SUCCESS_REDIRECT_MS },
}).createMachine({
  id: 'ssoCallback',
  context: ({ input }) => ({
    code: input.code?.trim() || null,
    // the provider's own words come first
    error: input.error_description?.trim() || input.error?.trim() || null,
  }),
  initial: 'processing',
  states: {
    processing: {
      description: 'Exchanges the one-time code for tokens.',
      tags: ['loading'],
      always: [
        { guard: 'providerError', target: 'error' },
        {
          guard: 'noCode',
          target: 'error',
          actions: assign({ error: SSO_CALLBACK_TEXTS.noCode }),
        },
      ],
      invoke: {
        id: 'exchangeCode',
        src: 'exchangeCode',
        input: ({ context }) => ({ code: context.code ?? '' }),
        onDone: {
          target: 'success',
          actions: { type: 'signIn', params: ({ event }) => event.output },
        },
        onError: { target: 'error', actions: { type: 'showFailure', params: failureOf } },
      },
    },
    success: {
      description: 'Signed in: on to / after 1.5 s, replacing the history entry.',
      after: { successRedirect: { target: 'done', actions: 'goHome' } },
    },
    done: {
      description: 'The browser has been sent on; nothing more happens here.',
      type: 'final',
    },
    error: {
      description: "The reason, and 'Try Again' to /login.",
      on: { retry: { actions: 'goToLogin' } },
    },
  },
})
