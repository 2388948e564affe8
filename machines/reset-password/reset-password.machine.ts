import { assign, emit, fromPromise, setup } from 'xstate'
import { AUTH_TEXTS } from '../../contract/auth-texts.ts'
import { emailedLinkGuards, failureOf, linkPasswordInput, newPasswordForm } from '../account.ts'
import { mustBeProvidedIn } from '../actors.ts'
import { PASSWORD_SAVED_REDIRECT_MS, RESET_LINK_REJECTED_REDIRECT_MS } from '../constants.ts'
import type {
  ConfirmPasswordResetInput,
  RequestFailure,
  RequestPasswordResetInput,
  ResetPasswordSchema,
  ValidateResetTokenInput,
  ValidateResetTokenResponse,
} from './reset-password.types.ts'

const mustBeProvided = mustBeProvidedIn('resetPasswordMachine')

/** Spec section 8, 'Reset'. Status 0: the server was never reached. */
const resetFailureText = (failure: RequestFailure) =>
  failure.status === 0
    ? AUTH_TEXTS.resetNetwork
    : failure.msg || failure.error || AUTH_TEXTS.resetFailed

/**
 * Reset with an emailed link (spec section 4, 'Password reset page'): checking, then valid,
 * expired or invalid. An expired link can mail a fresh one to its owner.
 */
export const resetPasswordMachine = setup({
  types: {} as ResetPasswordSchema,
  actors: {
    validateResetToken: fromPromise<ValidateResetTokenResponse, ValidateResetTokenInput>(
      mustBeProvided('validateResetToken'),
    ),
    confirmPasswordReset: fromPromise<void, ConfirmPasswordResetInput>(
      mustBeProvided('confirmPasswordReset'),
    ),
    requestPasswordReset: fromPromise<void, RequestPasswordResetInput>(
      mustBeProvided('requestPasswordReset'),
    ),
  },
  actions: {
    markLinkIncomplete: assign({ linkError: AUTH_TEXTS.invalidOrMissingToken }),
    setEmail: assign((_, email: string | null) => ({ email })),
    setPassword: assign(newPasswordForm.setPassword),
    setConfirm: assign(newPasswordForm.setConfirm),
    showPasswordError: assign(({ context }) => newPasswordForm.showPasswordError(context)),
    clearFormError: assign({ formError: null }),
    showResetFailure: assign((_, failure: RequestFailure) => ({
      formError: resetFailureText(failure),
    })),
    showLinkRejected: assign({ formError: AUTH_TEXTS.invalidOrExpiredResetLink }),
    showNoEmail: assign({ resendError: AUTH_TEXTS.resendEmailNotFound }),
    clearResendError: assign({ resendError: null }),
    showResendFailure: assign({ resendError: AUTH_TEXTS.resendFailed }),
    goToLogin: emit({ type: 'navigate', to: '/login' } as const),
  },
  guards: {
    ...emailedLinkGuards,
    tokenIsValid: (_, result: ValidateResetTokenResponse) => result.token_valid,
    tokenHasExpired: (_, result: ValidateResetTokenResponse) => result.expired === true,
    passwordBreaksRule: newPasswordForm.breaksRule,
    hasEmail: ({ context }) => Boolean(context.email),
  },
  delays: {
    passwordSavedRedirect: PASSWORD_SAVED_REDIRECT_MS,
    linkRejectedRedirect: RESET_LINK_REJECTED_REDIRECT_MS,
  },
}).createMachine({
  id: 'resetPassword',
  context: ({ input }) => ({
    uid: input.uid || null,
    token: input.token || null,
    email: null,
    password: '',
    confirm: '',
    linkError: null,
    formError: null,
    resendError: null,
  }),
  initial: 'checking',
  states: {
    checking: {
      description:
        "'Validating reset link...': asks the server about the link. A link without uid or token is invalid at once.",
      tags: ['loading'],
      always: { guard: 'linkIsIncomplete', target: 'invalid', actions: 'markLinkIncomplete' },
      invoke: {
        id: 'validateResetToken',
        src: 'validateResetToken',
        input: ({ context }) => ({ uid: context.uid ?? '', token: context.token ?? '' }),
        onDone: [
          {
            guard: { type: 'tokenIsValid', params: ({ event }) => event.output },
            target: 'valid',
            actions: { type: 'setEmail', params: ({ event }) => event.output.user_email },
          },
          {
            guard: { type: 'tokenHasExpired', params: ({ event }) => event.output },
            target: 'expired',
            actions: { type: 'setEmail', params: ({ event }) => event.output.user_email },
          },
          { target: 'invalid' },
        ],
        onError: { target: 'invalid' },
      },
    },
    invalid: {
      description:
        "'Invalid Reset Link' with 'Request New Reset Link' (to /forgot-password) and 'Back to Login'.",
    },
    expired: {
      description:
        "'Reset Link Expired': 'Send New Reset Link' to the owner's address, 'Use Different Email' and 'Back to Login'.",
      initial: 'idle',
      states: {
        idle: {
          description: 'The expired link’s page, until a new link is asked for.',
          on: {
            resend: [
              { guard: 'hasEmail', target: 'sending', actions: 'clearResendError' },
              {
                description: "The check gave no address: 'Unable to resend - email not found'.",
                actions: 'showNoEmail',
              },
            ],
          },
        },
        sending: {
          description: 'Asks for a new link for the address the check returned.',
          tags: ['loading'],
          invoke: {
            id: 'requestPasswordReset',
            src: 'requestPasswordReset',
            input: ({ context }) => ({ email: context.email ?? '' }),
            onDone: { target: 'sent' },
            onError: { target: 'idle', actions: 'showResendFailure' },
          },
        },
        sent: { description: 'A new link is on its way; it is valid for 1 hour.' },
      },
    },
    valid: {
      description: "'Reset Password': new password and confirm, each with show/hide.",
      initial: 'editing',
      states: {
        editing: {
          description: 'The new password for the account the link was mailed to, typed twice.',
          on: {
            'password.change': { actions: { type: 'setPassword', params: newPasswordForm.value } },
            'confirm.change': { actions: { type: 'setConfirm', params: newPasswordForm.value } },
            // a broken rule is said (too short, or the two fields differ), and nothing is sent
            submit: [{ guard: 'passwordBreaksRule', actions: 'showPasswordError' }, 'submitting'],
          },
        },
        submitting: {
          description: 'Sends the new password with the link; a refused link goes to rejected.',
          tags: ['loading'],
          entry: 'clearFormError',
          invoke: {
            id: 'confirmPasswordReset',
            src: 'confirmPasswordReset',
            input: linkPasswordInput,
            onDone: { target: 'saved' },
            onError: [
              {
                guard: { type: 'linkWasRejected', params: failureOf },
                target: 'rejected',
                actions: 'showLinkRejected',
              },
              { target: 'editing', actions: { type: 'showResetFailure', params: failureOf } },
            ],
          },
        },
        saved: {
          description: 'The password is reset; the user goes to /login to sign in with it.',
          after: { passwordSavedRedirect: { actions: 'goToLogin' } },
        },
        rejected: {
          description:
            "The server refused the link: 'Invalid or expired reset link', then to /login.",
          after: { linkRejectedRedirect: { actions: 'goToLogin' } },
        },
      },
    },
  },
})
