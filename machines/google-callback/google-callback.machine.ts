import { assign, emit, fromPromise, setup } from 'xstate'
import type { AccessClaims } from '../../contract/auth.ts'
import { GOOGLE_CALLBACK_TEXTS } from '../../contract/sso.ts'
import { failureOf, type RequestFailure } from '../account.ts'
import { mustBeProvidedIn } from '../actors.ts'
import {
  GOOGLE_CALLBACK_ERROR_REDIRECT_MS,
  GOOGLE_CALLBACK_FORBIDDEN_REDIRECT_MS,
} from '../constants.ts'

export interface GoogleCallbackInput {
  code?: string | null
  state?: string | null
  error?: string | null
  iss?: string | null
}

export type GoogleCallbackEmitted =
  | { type: 'signedIn'; claims: AccessClaims }
  | { type: 'navigate'; to: '/' | '/login' }

/** The error text of a failed callback call (spec section 8). */
export function googleFailureText(failure: RequestFailure): string {
  if (failure.status === 403) return failure.error ?? GOOGLE_CALLBACK_TEXTS.forbidden
  if (failure.status === 400)
    return failure.redirect_to_login
      ? GOOGLE_CALLBACK_TEXTS.expired
      : (failure.message ?? failure.error ?? failure.detail ?? GOOGLE_CALLBACK_TEXTS.badRequest)
  return GOOGLE_CALLBACK_TEXTS.other
}

const mustBeProvided = mustBeProvidedIn('googleCallbackMachine')

/**
 * /auth/social/google/callback (spec sections 2, 5 and 8): 'Completing sign in...' while the code
 * and state go to the server; signed in, on to /; on an error, 'Authentication Error' with its
 * text and back to /login after 3 s (5 s on a 403).
 */
export const googleCallbackMachine = setup({
  types: {
    context: {} as {
      code: string | null
      state: string | null
      iss: string | null
      error: string | null
    },
    input: {} as GoogleCallbackInput,
    emitted: {} as GoogleCallbackEmitted,
    tags: {} as 'loading',
  },
  actors: {
    completeGoogle: fromPromise<AccessClaims, { code: string; state: string; iss: string | null }>(
      mustBeProvided('completeGoogle'),
    ),
  },
  actions: {
    signIn: emit((_, claims: AccessClaims) => ({ type: 'signedIn' as const, claims })),
    goHome: emit({ type: 'navigate', to: '/' } as const),
    goToLogin: emit({ type: 'navigate', to: '/login' } as const),
    showFailure: assign((_, failure: RequestFailure) => ({ error: googleFailureText(failure) })),
  },
  guards: {
    providerError: ({ context }) => context.error !== null,
    missingParameters: ({ context }) => !context.code || !context.state,
    forbidden: (_, failure: RequestFailure) => failure.status === 403,
  },
  delays: {
    errorRedirect: GOOGLE_CALLBACK_ERROR_REDIRECT_MS,
    forbiddenRedirect: GOOGLE_CALLBACK_FORBIDDEN_REDIRECT_MS,
  },
}).createMachine({
  id: 'googleCallback',
  context: ({ input }) => ({
    code: input.code?.trim() || null,
    state: input.state?.trim() || null,
    iss: input.iss?.trim() || null,
    error: input.error?.trim() ? GOOGLE_CALLBACK_TEXTS.providerError : null,
  }),
  initial: 'completing',
  states: {
    completing: {
      description: "'Completing sign in...': the code and state go to the server.",
      tags: ['loading'],
      always: [
        { guard: 'providerError', target: 'failed' },
        {
          guard: 'missingParameters',
          target: 'failed',
          actions: assign({ error: GOOGLE_CALLBACK_TEXTS.missingParameters }),
        },
      ],
      invoke: {
        id: 'completeGoogle',
        src: 'completeGoogle',
        input: ({ context }) => ({
          code: context.code ?? '',
          state: context.state ?? '',
          iss: context.iss,
        }),
        onDone: {
          target: 'signedIn',
          actions: [{ type: 'signIn', params: ({ event }) => event.output }, 'goHome'],
        },
        onError: [
          {
            guard: { type: 'forbidden', params: failureOf },
            target: 'forbidden',
            actions: { type: 'showFailure', params: failureOf },
          },
          { target: 'failed', actions: { type: 'showFailure', params: failureOf } },
        ],
      },
    },
    signedIn: { description: 'Signed in: on to /.', type: 'final' },
    failed: {
      description: "'Authentication Error', then /login after 3 s.",
      after: { errorRedirect: { target: 'left', actions: 'goToLogin' } },
    },
    forbidden: {
      description: "'Authentication Error' for an account not allowed, then /login after 5 s.",
      after: { forbiddenRedirect: { target: 'left', actions: 'goToLogin' } },
    },
    left: { description: 'On to /login; nothing more happens here.', type: 'final' },
  },
})
