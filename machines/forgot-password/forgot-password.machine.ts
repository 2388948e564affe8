import { assign, fromPromise, setup } from 'xstate'
import { AUTH_TEXTS, loginEmailError } from '../../contract/auth-texts.ts'
import { failureOf } from '../account.ts'
import { mustBeProvidedIn } from '../actors.ts'
import type {
  ForgotPasswordSchema,
  RequestFailure,
  RequestPasswordResetInput,
} from './forgot-password.types.ts'

const mustBeProvided = mustBeProvidedIn('forgotPasswordMachine')

/** Spec section 8, 'Forgot password'. Status 0: the server was never reached. */
const failureText = (failure: RequestFailure) =>
  failure.status === 0
    ? AUTH_TEXTS.resetEmailNetwork
    : failure.detail || failure.error || AUTH_TEXTS.resetEmailFailed

/**
 * Asks for a password reset link (spec section 2, '/forgot-password'). The server answers the same
 * whether or not the account exists, so the confirmation never says which.
 */
export const forgotPasswordMachine = setup({
  types: {} as ForgotPasswordSchema,
  actors: {
    requestPasswordReset: fromPromise<void, RequestPasswordResetInput>(
      mustBeProvided('requestPasswordReset'),
    ),
  },
  actions: {
    setEmail: assign((_, value: string) => ({ email: value, emailError: null })),
    showEmailError: assign(({ context }) => ({
      emailError: loginEmailError(context.email),
      error: null,
    })),
    clearErrors: assign({ emailError: null, error: null }),
    showFailure: assign((_, failure: RequestFailure) => ({ error: failureText(failure) })),
  },
  guards: {
    emailIsValid: ({ context }) => loginEmailError(context.email) === null,
  },
}).createMachine({
  id: 'forgotPassword',
  context: { email: '', emailError: null, error: null },
  initial: 'editing',
  states: {
    editing: {
      description: "Email entry. 'Send Reset Link' is disabled while the email is blank.",
      on: {
        'email.change': { actions: { type: 'setEmail', params: ({ event }) => event.value } },
        submit: [
          { guard: 'emailIsValid', target: 'sending', actions: 'clearErrors' },
          { description: 'Not an address: says so; nothing is sent.', actions: 'showEmailError' },
        ],
      },
    },
    sending: {
      description: 'Asks the server to mail a reset link.',
      tags: ['loading'],
      invoke: {
        id: 'requestPasswordReset',
        src: 'requestPasswordReset',
        input: ({ context }) => ({ email: context.email.trim() }),
        onDone: { target: 'sent' },
        onError: { target: 'editing', actions: { type: 'showFailure', params: failureOf } },
      },
    },
    sent: {
      description:
        'Instructions were sent if an account exists; the link expires in 1 hour. Offers Return to Login.',
      type: 'final',
    },
  },
})
