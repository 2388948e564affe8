import { assign, emit, fromPromise, setup } from 'xstate'
import {
  EXTENSION_SCHEME,
  EXTENSION_TEXTS,
  extensionRedirectUris,
} from '../../contract/extension-texts.ts'
import { mustBeProvidedIn } from '../actors.ts'
import { EXTENSION_EXPIRES_IN_S, EXTENSION_REDIRECT_MS } from '../constants.ts'
import type {
  ExtensionAuthSchema,
  ExtensionSessionCheck,
  ExtensionTokens,
} from './extension-auth.types.ts'

const mustBeProvided = mustBeProvidedIn('extensionAuthMachine')

/** `<redirect_uri>#access_token=...&refresh_token=...&expires_in=7200&state=...` */
export const handOffUrl = (redirectUri: string, tokens: ExtensionTokens) =>
  `${redirectUri}#${new URLSearchParams({
    access_token: tokens.access_token,
    refresh_token: tokens.refresh_token,
    expires_in: String(tokens.expires_in || EXTENSION_EXPIRES_IN_S),
    state: tokens.state,
  })}`

/**
 * /extension/auth?redirect_uri&state&extension_id (spec sections 2, 5 and 8; AS13): checking, then
 * not_authenticated (stores the hand-off and offers 'Continue to Login'), redirecting (after 1.5 s
 * to the extension's address with the tokens in the fragment) or error ('Close Window'). The
 * address must be exactly `chrome-extension://<allowed id>/` and a state must come with it.
 */
export const extensionAuthMachine = setup({
  types: {} as ExtensionAuthSchema,
  actors: {
    checkSession: fromPromise<ExtensionSessionCheck, void>(mustBeProvided('checkSession')),
    handOff: fromPromise<ExtensionTokens, { redirectUri: string; state: string }>(
      mustBeProvided('handOff'),
    ),
  },
  actions: {
    refuse: assign((_, error: string) => ({ error, security: true })),
    storePending: emit(({ context }) => ({
      type: 'storePending' as const,
      redirectUri: context.redirectUri ?? '',
      state: context.state ?? '',
    })),
    redirect: emit(({ context }) => ({ type: 'redirect' as const, url: context.url ?? '' })),
  },
  guards: {
    noRedirect: ({ context }) => !context.redirectUri,
    notExtension: ({ context }) => !context.redirectUri?.startsWith(EXTENSION_SCHEME),
    noState: ({ context }) => !context.state,
    notAllowed: ({ context }, check: ExtensionSessionCheck) =>
      !check.extensionIds.some((id) =>
        extensionRedirectUris(id).some((uri) => uri === context.redirectUri),
      ),
    signedIn: (_, check: ExtensionSessionCheck) => check.signedIn,
  },
  delays: { extensionRedirect: EXTENSION_REDIRECT_MS },
}).createMachine({
  id: 'extensionAuth',
  context: ({ input }) => ({
    redirectUri: input.redirect_uri || null,
    state: input.state || null,
    error: null,
    security: false,
    url: null,
  }),
  initial: 'checking',
  states: {
    checking: {
      description: 'Checks the address, then the allowlist and whether this browser is signed in.',
      tags: ['loading'],
      always: [
        {
          guard: 'noRedirect',
          target: 'error',
          actions: { type: 'refuse', params: EXTENSION_TEXTS.missingRedirect },
        },
        {
          guard: 'notExtension',
          target: 'error',
          actions: {
            type: 'refuse',
            params: EXTENSION_TEXTS.invalidRedirect.replace('{address}', EXTENSION_SCHEME),
          },
        },
        {
          guard: 'noState',
          target: 'error',
          actions: { type: 'refuse', params: EXTENSION_TEXTS.missingState },
        },
      ],
      invoke: {
        id: 'checkSession',
        src: 'checkSession',
        onDone: [
          {
            guard: { type: 'notAllowed', params: ({ event }) => event.output },
            target: 'error',
            actions: { type: 'refuse', params: EXTENSION_TEXTS.notAllowed },
          },
          {
            guard: { type: 'signedIn', params: ({ event }) => event.output },
            target: 'handingOff',
          },
          { target: 'not_authenticated' },
        ],
        onError: { target: 'error', actions: assign({ error: EXTENSION_TEXTS.failed }) },
      },
    },
    not_authenticated: {
      description: "Stores redirect_uri and state in session storage; 'Continue to Login'.",
      entry: 'storePending',
      on: { login: { actions: emit({ type: 'navigate', to: '/login' } as const) } },
    },
    handingOff: {
      description: 'Asks the server for the extension’s own tokens.',
      tags: ['loading'],
      invoke: {
        id: 'handOff',
        src: 'handOff',
        input: ({ context }) => ({
          redirectUri: context.redirectUri ?? '',
          state: context.state ?? '',
        }),
        onDone: {
          target: 'redirecting',
          actions: assign({
            url: ({ context, event }) => handOffUrl(context.redirectUri ?? '', event.output),
          }),
        },
        onError: { target: 'error', actions: assign({ error: EXTENSION_TEXTS.failed }) },
      },
    },
    redirecting: {
      description: 'On to the extension after 1.5 s, the tokens in the URL fragment.',
      after: { extensionRedirect: { target: 'handedOff', actions: 'redirect' } },
    },
    handedOff: {
      description: 'The browser has gone to the extension with its tokens.',
      type: 'final',
    },
    error: {
      description: "The reason; 'Close Window'.",
      on: { close: { actions: emit({ type: 'closeWindow' } as const) } },
    },
  },
})
