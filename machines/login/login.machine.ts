import { assign, emit, fromPromise, setup } from 'xstate'
import type { AccessClaims, TokenPair } from '../../contract/auth.ts'
import { AUTH_TEXTS, loginEmailError } from '../../contract/auth-texts.ts'
import { errorText } from '../../contract/errors.ts'
import { mustBeProvidedIn } from '../actors.ts'
import {
  GOOGLE_AUTO_REDIRECT_MS,
  LOGIN_EVENT_PAUSE_MS,
  SSO_DISCOVERY_FALLBACK_MS,
} from '../constants.ts'
import { asFailure, bodyField, loginFailureText, ssoMessageText } from './failures.ts'
import type {
  DiscoverInput,
  HandOffInput,
  LoginContext,
  LoginInput,
  LoginResponse,
  LoginSchema,
  SignInProviders,
  SsoDiscoverResponse,
  SsoStartInput,
  StoredLogin,
} from './login.types.ts'

const mustBeProvided = mustBeProvidedIn('loginMachine')

const cleared = { error: null, notice: null } satisfies Partial<LoginContext>

/**
 * The three-step sign-in of /login (spec sections 2, 4 'Login', 5 and 8): email, then discovery
 * decides between the sso step and the password step; 'Back to email' returns. Requests,
 * storage and browser redirects are actors; in-app navigation and the login event are emitted
 * for the view.
 */
export const loginMachine = setup({
  types: {} as LoginSchema,
  actors: {
    discoverSso: fromPromise<SsoDiscoverResponse, DiscoverInput>(mustBeProvided('discoverSso')),
    login: fromPromise<LoginResponse, LoginInput>(mustBeProvided('login')),
    /** Stores the tokens and reads any pending extension hand-off. */
    storeTokens: fromPromise<StoredLogin, TokenPair>(mustBeProvided('storeTokens')),
    /** Asks for Google's authorization address and sends the browser there. */
    startGoogle: fromPromise<void>(mustBeProvided('startGoogle')),
    /** Sends the browser to the organisation's SSO login address. */
    startSso: fromPromise<void, SsoStartInput>(mustBeProvided('startSso')),
    /** Sends the browser back to the extension with a child session's tokens in the URL fragment. */
    handOffToExtension: fromPromise<void, HandOffInput>(mustBeProvided('handOffToExtension')),
    /** Which sign-in providers this server has configured (Google only when it is set up). */
    loadProviders: fromPromise<SignInProviders>(mustBeProvided('loadProviders')),
  },
  actions: {
    setEmail: assign((_, value: string) => ({ email: value, ...cleared })),
    setPassword: assign((_, value: string) => ({ password: value, error: null })),
    showError: assign((_, error: string) => ({ error, notice: null })),
    showNotice: assign((_, notice: string) => ({ notice, error: null })),
    clearMessages: assign(cleared),
    backToEmail: assign({ password: '', sso: null, ...cleared }),
    setSso: assign((_, result: SsoDiscoverResponse) => ({
      sso: {
        provider: result.result?.provider ?? '',
        organization: result.result?.organization ?? AUTH_TEXTS.ssoOrganizationFallback,
      },
    })),
    setTokens: assign((_, tokens: LoginResponse) => ({ tokens })),
    setProviders: assign((_, providers: SignInProviders) => ({ google: providers.google })),
    setStored: assign((_, stored: StoredLogin) => ({
      claims: stored.claims,
      extension: stored.extension,
    })),
    // only `storingTokens` leads here, and it always sets the claims
    emitSignedIn: emit(({ context }) => ({
      type: 'signedIn' as const,
      claims: context.claims as AccessClaims,
    })),
    emitNavigateHome: emit({ type: 'navigate' as const, to: '/' as const }),
    emitNavigatePasswordChange: emit({
      type: 'navigate' as const,
      to: '/force-password-change' as const,
    }),
  },
  guards: {
    hasEmail: ({ context }) => context.email !== '',
    hasPassword: ({ context }) => context.password !== '',
    isBlank: (_, value: string) => value === '',
    emailValid: ({ context }) => loginEmailError(context.email) === null,
    ssoEnabled: (_, result: SsoDiscoverResponse) => result.sso_enabled,
    isServerError: (_, params: { error: unknown }) => asFailure(params.error).status === 500,
    isUnauthorized: (_, params: { error: unknown }) => asFailure(params.error).status === 401,
    redirectsToGoogle: (_, params: { error: unknown }) =>
      bodyField(asFailure(params.error).body, 'redirect_to_google') === true,
    requiresPasswordChange: ({ context }) => context.tokens?.requires_password_change === true,
    extensionPending: (_, stored: StoredLogin) => stored.extension !== null,
  },
  delays: {
    ssoDiscoveryFallback: SSO_DISCOVERY_FALLBACK_MS,
    googleAutoRedirect: GOOGLE_AUTO_REDIRECT_MS,
    loginEventPause: LOGIN_EVENT_PAUSE_MS,
  },
}).createMachine({
  id: 'login',
  context: ({ input }) => ({
    email: '',
    password: '',
    error: ssoMessageText(input?.message),
    notice: null,
    sso: null,
    tokens: null,
    claims: null,
    extension: null,
    google: null,
  }),
  // the Google button shows only where the server has Google configured; unknown until it says
  invoke: {
    id: 'loadProviders',
    src: 'loadProviders',
    onDone: { actions: { type: 'setProviders', params: ({ event }) => event.output } },
    // unknown stays unknown: the button shows, and Google's own start says what is wrong
    onError: { actions: [] },
  },
  initial: 'email',
  states: {
    email: {
      description:
        "'Work Email' and 'Continue' (disabled while blank), and Google under 'Or continue with'.",
      initial: 'restoring',
      on: { 'google.start': { target: 'googleStarting', actions: 'clearMessages' } },
      states: {
        restoring: {
          description: 'Settles at once: back from a later step, the email is still there.',
          always: [{ guard: 'hasEmail', target: 'filled' }, { target: 'blank' }],
        },
        blank: {
          description: 'No email yet: Continue is disabled.',
          on: {
            'email.change': [
              {
                guard: { type: 'isBlank', params: ({ event }) => event.value },
                actions: { type: 'setEmail', params: ({ event }) => event.value },
              },
              {
                target: 'filled',
                actions: { type: 'setEmail', params: ({ event }) => event.value },
              },
            ],
          },
        },
        filled: {
          description: 'Continue checks the address (spec section 5), then asks discovery.',
          tags: ['submittable'],
          on: {
            'email.change': [
              {
                guard: { type: 'isBlank', params: ({ event }) => event.value },
                target: 'blank',
                actions: { type: 'setEmail', params: ({ event }) => event.value },
              },
              { actions: { type: 'setEmail', params: ({ event }) => event.value } },
            ],
            'email.submit': [
              { guard: 'emailValid', target: '#login.discovering', actions: 'clearMessages' },
              {
                description:
                  "'Please enter your email address' or 'Please enter a valid email address'.",
                actions: {
                  type: 'showError',
                  params: ({ context }) => loginEmailError(context.email) ?? '',
                },
              },
            ],
          },
        },
      },
    },
    discovering: {
      description: 'SSO discovery for the address decides between the sso and password steps.',
      tags: ['loading'],
      invoke: {
        id: 'discoverSso',
        src: 'discoverSso',
        input: ({ context }) => ({ email: context.email.trim() }),
        onDone: [
          {
            guard: { type: 'ssoEnabled', params: ({ event }) => event.output },
            target: 'sso',
            actions: { type: 'setSso', params: ({ event }) => event.output },
          },
          { target: 'password' },
        ],
        onError: [
          {
            guard: { type: 'isServerError', params: ({ event }) => ({ error: event.error }) },
            target: 'discoveryFallback',
            actions: { type: 'showNotice', params: AUTH_TEXTS.ssoDiscovery500 },
          },
          {
            target: 'email',
            actions: {
              type: 'showError',
              params: ({ event }) =>
                errorText(asFailure(event.error).body, AUTH_TEXTS.ssoDiscoveryFailed),
            },
          },
        ],
      },
    },
    discoveryFallback: {
      description:
        "Discovery answered 500: 'Unable to check SSO status. Continuing with password login.', then the password step after 1.5 s.",
      tags: ['loading'],
      after: { ssoDiscoveryFallback: 'password' },
    },
    sso: {
      description: "SSO is on for the organisation: the email and 'Continue to {organization}'.",
      tags: ['submittable'],
      on: {
        'sso.continue': { target: 'ssoRedirecting', actions: 'clearMessages' },
        back: { target: 'email', actions: 'backToEmail' },
      },
    },
    ssoRedirecting: {
      description: "'Redirecting...' to the organisation's SSO login until the page unloads.",
      tags: ['loading'],
      invoke: {
        id: 'startSso',
        src: 'startSso',
        input: ({ context }) => ({ provider: context.sso?.provider ?? '', email: context.email }),
        onError: {
          target: 'sso',
          actions: { type: 'showError', params: AUTH_TEXTS.ssoStartFailed },
        },
      },
    },
    password: {
      description:
        "'Enter password' with show/hide, 'Forgot your password?', 'Sign in' and 'Back to email'.",
      initial: 'restoring',
      on: {
        back: { target: 'email', actions: 'backToEmail' },
        'password.change': [
          {
            guard: { type: 'isBlank', params: ({ event }) => event.value },
            target: '.blank',
            actions: { type: 'setPassword', params: ({ event }) => event.value },
          },
          {
            target: '.filled',
            actions: { type: 'setPassword', params: ({ event }) => event.value },
          },
        ],
      },
      states: {
        restoring: {
          description: 'Settles at once: after a failed sign-in the password is still there.',
          always: [{ guard: 'hasPassword', target: 'filled' }, { target: 'blank' }],
        },
        blank: { description: 'No password yet: Sign in is disabled.' },
        filled: {
          description: "A password is typed: 'Sign in' sends it.",
          tags: ['submittable'],
          on: {
            'password.submit': { target: '#login.signingIn', actions: 'clearMessages' },
          },
        },
      },
    },
    signingIn: {
      description: "'Signing in...': POST login/ with the email and password.",
      tags: ['loading'],
      invoke: {
        id: 'login',
        src: 'login',
        input: ({ context }) => ({ email: context.email.trim(), password: context.password }),
        onDone: {
          target: 'storingTokens',
          actions: { type: 'setTokens', params: ({ event }) => event.output },
        },
        onError: [
          {
            guard: { type: 'redirectsToGoogle', params: ({ event }) => ({ error: event.error }) },
            target: 'googleRedirectPending',
            actions: { type: 'showError', params: ({ event }) => loginFailureText(event.error) },
          },
          {
            guard: { type: 'isUnauthorized', params: ({ event }) => ({ error: event.error }) },
            target: 'password',
            actions: { type: 'showError', params: AUTH_TEXTS.wrongCredentials },
          },
          {
            target: 'password',
            actions: { type: 'showError', params: ({ event }) => loginFailureText(event.error) },
          },
        ],
      },
    },
    googleRedirectPending: {
      description:
        'The organisation signs in with Google: the reason shows, and the redirect follows after 1.5 s.',
      tags: ['loading'],
      after: { googleAutoRedirect: 'googleRedirecting' },
    },
    googleRedirecting: {
      description: "Asks for Google's authorization address and goes there.",
      tags: ['loading'],
      invoke: {
        id: 'googleRedirect',
        src: 'startGoogle',
        onError: {
          target: 'password',
          actions: { type: 'showError', params: AUTH_TEXTS.googleRedirectFailed },
        },
      },
    },
    googleStarting: {
      description: "The Google button: asks for Google's authorization address and goes there.",
      tags: ['loading'],
      invoke: {
        id: 'googleStart',
        src: 'startGoogle',
        onError: {
          target: 'email',
          actions: { type: 'showError', params: AUTH_TEXTS.googleStartFailed },
        },
      },
    },
    storingTokens: {
      description: 'The tokens are stored; a pending browser-extension hand-off is read.',
      tags: ['loading'],
      invoke: {
        id: 'storeTokens',
        src: 'storeTokens',
        input: ({ context }) => ({
          access: context.tokens?.access ?? '',
          refresh: context.tokens?.refresh ?? '',
        }),
        onDone: [
          {
            guard: 'requiresPasswordChange',
            target: 'passwordChangeRequired',
            actions: { type: 'setStored', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'extensionPending', params: ({ event }) => event.output },
            target: 'handingOff',
            actions: { type: 'setStored', params: ({ event }) => event.output },
          },
          {
            target: 'pausing',
            actions: { type: 'setStored', params: ({ event }) => event.output },
          },
        ],
        onError: {
          target: 'password',
          actions: { type: 'showError', params: AUTH_TEXTS.genericError },
        },
      },
    },
    passwordChangeRequired: {
      description: 'requires_password_change: on to /force-password-change.',
      type: 'final',
      tags: ['loading'],
      entry: 'emitNavigatePasswordChange',
    },
    handingOff: {
      description:
        'A browser extension asked for the sign-in: a session of its own (the hand-off call, a child of the one just stored) and the state go back to it (expires_in 7200).',
      tags: ['loading'],
      invoke: {
        id: 'handOffToExtension',
        src: 'handOffToExtension',
        input: ({ context }) => ({
          extension: context.extension ?? { redirectUri: '', state: '' },
          tokens: { access: context.tokens?.access ?? '', refresh: context.tokens?.refresh ?? '' },
        }),
        onError: {
          target: 'password',
          actions: { type: 'showError', params: AUTH_TEXTS.genericError },
        },
      },
    },
    pausing: {
      description: 'The login event fires after a 100 ms pause.',
      tags: ['loading'],
      after: { loginEventPause: 'signedIn' },
    },
    signedIn: {
      description: 'The session is told, and the user goes to /.',
      type: 'final',
      tags: ['loading'],
      entry: ['emitSignedIn', 'emitNavigateHome'],
    },
  },
})
