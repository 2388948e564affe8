import { assign, emit, fromPromise, setup } from 'xstate'
import { type AccessClaims, AUTH_ERROR_CODES } from '../../contract/auth.ts'
import { AUTH_TEXTS } from '../../contract/auth-texts.ts'
import { failureOf, type RequestFailure } from '../account.ts'
import { mustBeProvidedIn } from '../actors.ts'
import { CONFIRM_EMAIL_FAILED_REDIRECT_MS } from '../constants.ts'
import type { ConfirmEmailRequest, ConfirmEmailSchema } from './confirm-email.types.ts'

const mustBeProvided = mustBeProvidedIn('confirmEmailMachine')

/**
 * Automatic email confirmation from the activation link (spec sections 2 and 8, 'Confirm
 * email'). A confirmed address signs the user in; a failure says so and goes to /login.
 */
export const confirmEmailMachine = setup({
  types: {} as ConfirmEmailSchema,
  actors: {
    confirmEmail: fromPromise<AccessClaims, ConfirmEmailRequest>(mustBeProvided('confirmEmail')),
  },
  actions: {
    markLinkIncomplete: assign({ error: AUTH_TEXTS.invalidConfirmationLink }),
    showPending: assign((_, failure: RequestFailure) => ({
      error: failure.msg ?? failure.error ?? null,
    })),
    showFailure: assign({ error: AUTH_TEXTS.confirmEmailFailed }),
    showAlreadyConfirmed: assign({ error: AUTH_TEXTS.emailAlreadyConfirmed }),
    signIn: emit((_, claims: AccessClaims) => ({ type: 'signedIn' as const, claims })),
    goToLogin: emit({ type: 'navigate', to: '/login' } as const),
  },
  guards: {
    linkIsIncomplete: ({ context }) => !context.uuid,
    waitsForApproval: (_, failure: RequestFailure) =>
      failure.code === AUTH_ERROR_CODES.pendingApproval,
    wasConfirmedBefore: (_, failure: RequestFailure) =>
      failure.code === AUTH_ERROR_CODES.alreadyConfirmed,
  },
  delays: {
    failedRedirect: CONFIRM_EMAIL_FAILED_REDIRECT_MS,
  },
}).createMachine({
  id: 'confirmEmail',
  context: ({ input }) => ({ uuid: input.uuid || null, error: null }),
  initial: 'confirming',
  states: {
    confirming: {
      description:
        "'Confirming your email...': sends the link's uuid. A link without one is invalid at once.",
      tags: ['loading'],
      always: { guard: 'linkIsIncomplete', target: 'failed', actions: 'markLinkIncomplete' },
      invoke: {
        id: 'confirmEmail',
        src: 'confirmEmail',
        input: ({ context }) => ({ uuid: context.uuid ?? '' }),
        onDone: {
          target: 'confirmed',
          actions: { type: 'signIn', params: ({ event }) => event.output },
        },
        onError: [
          {
            guard: { type: 'waitsForApproval', params: failureOf },
            target: 'awaitingApproval',
            actions: { type: 'showPending', params: failureOf },
          },
          {
            guard: { type: 'wasConfirmedBefore', params: failureOf },
            target: 'alreadyConfirmed',
            actions: { type: 'showAlreadyConfirmed' },
          },
          { target: 'failed', actions: 'showFailure' },
        ],
      },
    },
    awaitingApproval: {
      description:
        'The address is confirmed, but it asked to join an organisation whose admin has yet to approve: says so, and stays.',
      type: 'final',
    },
    alreadyConfirmed: {
      description:
        "The link was opened before and the address is confirmed: says so and offers 'Sign in'; no redirect.",
      type: 'final',
    },
    confirmed: {
      description: 'Tokens are stored; the session signs in and the user goes to /.',
      type: 'final',
    },
    failed: {
      description: 'Says why, then goes to /login after a pause long enough to read it.',
      after: { failedRedirect: { actions: 'goToLogin' } },
    },
  },
})
