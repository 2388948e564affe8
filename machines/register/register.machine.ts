import { assign, fromPromise, setup } from 'xstate'
import { AUTH_TEXTS, newPasswordError, registrationEmailError } from '../../contract/auth-texts.ts'
import { failureOf } from '../account.ts'
import { mustBeProvidedIn } from '../actors.ts'
import type {
  RegisterContext,
  RegisterField,
  RegisterInput,
  RegisterSchema,
  RequestFailure,
} from './register.types.ts'

const mustBeProvided = mustBeProvidedIn('registerMachine')

/** Required fields other than the email, whose own check (spec section 5) covers a blank one. */
const OTHER_REQUIRED: readonly RegisterField[] = [
  'firstName',
  'lastName',
  'organization',
  'password',
]

// A password of spaces is still a password; names and organisations are trimmed.
const isBlank = (field: RegisterField, value: string) =>
  field === 'password' ? value === '' : value.trim() === ''

function checkForm(values: RegisterContext['values']) {
  return {
    emailError: registrationEmailError(values.email),
    missing: OTHER_REQUIRED.filter((field) => isBlank(field, values[field])),
    // only the length is enforced (spec section 5); a blank password is reported as missing
    passwordError: values.password ? newPasswordError(values.password) : null,
  }
}

/**
 * Registration of a new organisation account (spec sections 2, 5 and 8, 'Register'). The server
 * mails an activation link; the success screen says so.
 */
export const registerMachine = setup({
  types: {} as RegisterSchema,
  actors: {
    register: fromPromise<void, RegisterInput>(mustBeProvided('register')),
  },
  actions: {
    setValue: assign(({ context }, params: { field: RegisterField; value: string }) => ({
      values: { ...context.values, [params.field]: params.value },
      missing: context.missing.filter((field) => field !== params.field),
      // an address already marked wrong is checked again on every change, so the error clears
      // (and Register enables) as soon as it is corrected
      emailError:
        params.field === 'email' && context.emailError !== null
          ? registrationEmailError(params.value)
          : context.emailError,
      // likewise a password already marked wrong is checked on every change, so the rule's error
      // clears as soon as the password keeps it (issue 30)
      passwordError:
        params.field === 'password'
          ? context.passwordError !== null && params.value
            ? newPasswordError(params.value)
            : null
          : context.passwordError,
    })),
    checkPassword: assign(({ context }) => ({
      // leaving a blank password is not an error yet; submitting it is
      passwordError: context.values.password ? newPasswordError(context.values.password) : null,
    })),
    checkEmail: assign(({ context }) => ({
      // leaving a blank field is not an error yet; submitting it is
      emailError: context.values.email.trim()
        ? registrationEmailError(context.values.email)
        : context.emailError,
    })),
    setConsent: assign((_, value: boolean) => ({ marketingConsent: value })),
    showFormErrors: assign(({ context }) => ({ ...checkForm(context.values), error: null })),
    clearErrors: assign({ emailError: null, passwordError: null, missing: [], error: null }),
    showFailure: assign((_, failure: RequestFailure) => ({
      error: failure.msg || failure.error || AUTH_TEXTS.genericError,
    })),
  },
  guards: {
    formIsValid: ({ context }) => {
      const check = checkForm(context.values)
      return !check.emailError && !check.passwordError && check.missing.length === 0
    },
  },
}).createMachine({
  id: 'register',
  context: {
    values: { email: '', password: '', firstName: '', lastName: '', organization: '' },
    marketingConsent: false,
    emailError: null,
    passwordError: null,
    missing: [],
    error: null,
  },
  initial: 'editing',
  states: {
    editing: {
      description:
        'The form: work email, password, first and last name, organisation and the optional marketing checkbox. Register is disabled while an email error shows.',
      on: {
        'field.change': {
          actions: {
            type: 'setValue',
            params: ({ event }) => ({ field: event.field, value: event.value }),
          },
        },
        'email.blur': { actions: 'checkEmail' },
        'password.blur': { actions: 'checkPassword' },
        'consent.change': {
          actions: { type: 'setConsent', params: ({ event }) => event.value },
        },
        submit: [
          { guard: 'formIsValid', target: 'submitting', actions: 'clearErrors' },
          {
            description: 'Shows what stops the registration; nothing is sent.',
            actions: 'showFormErrors',
          },
        ],
      },
    },
    submitting: {
      description: 'Sends the registration payload; the form waits.',
      tags: ['loading'],
      invoke: {
        id: 'register',
        src: 'register',
        input: ({ context }) => ({
          email: context.values.email.trim(),
          password: context.values.password,
          organization: context.values.organization.trim(),
          firstName: context.values.firstName.trim(),
          lastName: context.values.lastName.trim(),
          marketing_consent: context.marketingConsent,
        }),
        onDone: { target: 'registered' },
        onError: { target: 'editing', actions: { type: 'showFailure', params: failureOf } },
      },
    },
    registered: {
      description:
        "'Registration Successful!': the activation link is on its way; Back to Login is offered.",
      type: 'final',
    },
  },
})
