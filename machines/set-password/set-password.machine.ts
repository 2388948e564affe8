import { assign, emit, fromPromise, setup } from 'xstate'
import type { AccessClaims } from '../../contract/auth.ts'
import { AUTH_TEXTS } from '../../contract/auth-texts.ts'
import { emailedLinkGuards, failureOf, linkPasswordInput, newPasswordForm } from '../account.ts'
import { mustBeProvidedIn } from '../actors.ts'
import { PASSWORD_SAVED_REDIRECT_MS } from '../constants.ts'
import type { RequestFailure, SetPasswordRequest, SetPasswordSchema } from './set-password.types.ts'

const mustBeProvided = mustBeProvidedIn('setPasswordMachine')

/** A 400 that names a password rule the server enforces is shown as it is; the rest generically. */
const setFailureText = (failure: RequestFailure) =>
  (failure.status === 400 && (failure.error || failure.msg)) || AUTH_TEXTS.setPasswordFailed

type Done = { event: { output: AccessClaims | null } }

/**
 * A first password from an invite link (spec section 2, '/set-password'). The link is checked by
 * the server when the password is sent: until then only its uid and token are required.
 */
export const setPasswordMachine = setup({
  types: {} as SetPasswordSchema,
  actors: {
    /** Sets the password; the claims of the session it starts, or null where none was given. */
    setPassword: fromPromise<AccessClaims | null, SetPasswordRequest>(
      mustBeProvided('setPassword'),
    ),
  },
  actions: {
    markLinkIncomplete: assign({ linkError: AUTH_TEXTS.invalidOrMissingToken }),
    markLinkRejected: assign({ linkError: AUTH_TEXTS.invalidOrExpiredToken }),
    setPassword: assign(newPasswordForm.setPassword),
    setConfirm: assign(newPasswordForm.setConfirm),
    showPasswordError: assign(({ context }) => newPasswordForm.showPasswordError(context)),
    clearFormError: assign({ formError: null }),
    showFailure: assign((_, failure: RequestFailure) => ({ formError: setFailureText(failure) })),
    goToLogin: emit({ type: 'navigate', to: '/login' } as const),
    signIn: emit((_, claims: AccessClaims) => ({ type: 'signedIn' as const, claims })),
  },
  guards: {
    ...emailedLinkGuards,
    passwordBreaksRule: newPasswordForm.breaksRule,
    startedASession: (_, claims: AccessClaims | null) => claims !== null,
  },
  delays: {
    passwordSavedRedirect: PASSWORD_SAVED_REDIRECT_MS,
  },
}).createMachine({
  id: 'setPassword',
  context: ({ input }) => ({
    uid: input.uid || null,
    token: input.token || null,
    password: '',
    confirm: '',
    linkError: null,
    formError: null,
  }),
  initial: 'checking',
  states: {
    checking: {
      description:
        "'Validating token...': a link needs its uid and token; the server checks them with the password.",
      tags: ['loading'],
      always: [
        { guard: 'linkIsIncomplete', target: 'invalid', actions: 'markLinkIncomplete' },
        { target: 'form' },
      ],
    },
    form: {
      description: "'Set Your Password': new password and confirm, each with show/hide.",
      initial: 'editing',
      states: {
        editing: {
          description: 'The first password of the invited person, typed twice.',
          on: {
            'password.change': { actions: { type: 'setPassword', params: newPasswordForm.value } },
            'confirm.change': { actions: { type: 'setConfirm', params: newPasswordForm.value } },
            // a broken rule is said (too short, or the two fields differ), and nothing is sent
            submit: [{ guard: 'passwordBreaksRule', actions: 'showPasswordError' }, 'submitting'],
          },
        },
        submitting: {
          description: 'Sends the new password with the link; the server checks the link now.',
          tags: ['loading'],
          entry: 'clearFormError',
          invoke: {
            id: 'setPassword',
            src: 'setPassword',
            input: linkPasswordInput,
            onDone: [
              {
                description: 'The invitation is accepted: the new session signs the person in.',
                guard: { type: 'startedASession', params: ({ event }: Done) => event.output },
                target: '#setPassword.signedIn',
                actions: {
                  type: 'signIn',
                  params: ({ event }: Done) => event.output as AccessClaims,
                },
              },
              { target: '#setPassword.saved' },
            ],
            onError: [
              {
                guard: { type: 'linkWasRejected', params: failureOf },
                target: '#setPassword.invalid',
                actions: 'markLinkRejected',
              },
              { target: 'editing', actions: { type: 'showFailure', params: failureOf } },
            ],
          },
        },
      },
    },
    signedIn: {
      description:
        "The password is set and the person is signed in: 'Signing you in...', and the session goes to /.",
      type: 'final',
    },
    saved: {
      description: 'The password is set; the user goes to /login to sign in with it.',
      after: { passwordSavedRedirect: { actions: 'goToLogin' } },
    },
    invalid: {
      description:
        "'Invalid or Expired Link' with the reason ('Invalid or missing token' or 'Invalid or expired token') and Back to Login.",
    },
  },
})
