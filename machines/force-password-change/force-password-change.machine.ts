import { assign, emit, fromPromise, setup } from 'xstate'
import type { AccessClaims } from '../../contract/auth.ts'
import { AUTH_TEXTS } from '../../contract/auth-texts.ts'
import { failureOf, newPasswordForm } from '../account.ts'
import { mustBeProvidedIn } from '../actors.ts'
import type {
  ChangePasswordForcedInput,
  ForcePasswordChangeSchema,
  RequestFailure,
} from './force-password-change.types.ts'

const mustBeProvided = mustBeProvidedIn('forcePasswordChangeMachine')

/**
 * The password change required after a sign-in flagged `requires_password_change` (spec sections
 * 2 and 6). The server answers with a fresh token pair: the session starts again on it.
 */
export const forcePasswordChangeMachine = setup({
  types: {} as ForcePasswordChangeSchema,
  actors: {
    changePasswordForced: fromPromise<AccessClaims, ChangePasswordForcedInput>(
      mustBeProvided('changePasswordForced'),
    ),
  },
  actions: {
    setPassword: assign(newPasswordForm.setPassword),
    setConfirm: assign(newPasswordForm.setConfirm),
    showPasswordError: assign(({ context }) => newPasswordForm.showPasswordError(context)),
    clearFormError: assign({ formError: null }),
    showFailure: assign((_, failure: RequestFailure) => ({
      formError: failure.error || failure.msg || AUTH_TEXTS.changePasswordFailed,
    })),
    signIn: emit((_, claims: AccessClaims) => ({ type: 'signedIn' as const, claims })),
  },
  guards: {
    passwordBreaksRule: newPasswordForm.breaksRule,
  },
}).createMachine({
  id: 'forcePasswordChange',
  context: { password: '', confirm: '', formError: null },
  initial: 'editing',
  states: {
    editing: {
      description:
        "'Change Your Password': 'You must change your password before continuing', new password and confirm.",
      on: {
        'password.change': { actions: { type: 'setPassword', params: newPasswordForm.value } },
        'confirm.change': { actions: { type: 'setConfirm', params: newPasswordForm.value } },
        // a broken rule is said (too short, or the two fields differ), and nothing is sent
        submit: [{ guard: 'passwordBreaksRule', actions: 'showPasswordError' }, 'submitting'],
      },
    },
    submitting: {
      description: 'Sends the new password with the current session.',
      tags: ['loading'],
      entry: 'clearFormError',
      invoke: {
        id: 'changePasswordForced',
        src: 'changePasswordForced',
        input: ({ context }) => ({ new_password: context.password }),
        onDone: {
          target: 'changed',
          actions: { type: 'signIn', params: ({ event }) => event.output },
        },
        onError: { target: 'editing', actions: { type: 'showFailure', params: failureOf } },
      },
    },
    changed: {
      description: 'New tokens are stored; the session signs in again and the user goes to /.',
      type: 'final',
    },
  },
})
