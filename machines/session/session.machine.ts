import { assign, emit, fromCallback, fromPromise, setup } from 'xstate'
import type { AccessClaims } from '../../contract/auth.ts'
import type { SessionEvents, SessionSchema, StoredSession } from './session.types.ts'

const mustBeProvided = (name: string) => () => {
  throw new Error(`sessionMachine: the ${name} actor must be provided`)
}

/**
 * The app-wide session (spec section 4, 'Authentication'). Side effects live in the provided
 * actors: reading and clearing tokens, refreshing, logging out, and listening to the API client's
 * auth-error events.
 */
export const sessionMachine = setup({
  types: {} as SessionSchema,
  actors: {
    readSession: fromPromise<StoredSession>(mustBeProvided('readSession')),
    refreshSession: fromPromise<AccessClaims>(mustBeProvided('refreshSession')),
    logout: fromPromise<void>(mustBeProvided('logout')),
    clearSession: fromPromise<void>(mustBeProvided('clearSession')),
    authEvents: fromCallback<SessionEvents>(() => () => {}),
  },
  actions: {
    setClaims: assign((_, claims: AccessClaims) => ({
      user: claims.user ?? null,
      expiresAt: claims.exp,
      endedBy: null,
    })),
    clearUser: assign((_, endedBy: 'logout' | 'expired' | null) => ({
      user: null,
      expiresAt: null,
      endedBy,
    })),
    emitLogin: emit({ type: 'login' as const }),
    emitLogout: emit({ type: 'logout' as const }),
    emitExpired: emit({ type: 'expired' as const }),
  },
}).createMachine({
  id: 'session',
  context: { user: null, expiresAt: null, endedBy: null },
  initial: 'checking',
  invoke: { id: 'authEvents', src: 'authEvents' },
  states: {
    checking: {
      description: 'Reads the stored tokens: none, an expired access token, or a valid one.',
      tags: ['loading'],
      invoke: {
        id: 'readSession',
        src: 'readSession',
        onDone: [
          {
            guard: ({ event }) => event.output.kind === 'valid',
            target: 'authenticated',
            actions: [
              {
                type: 'setClaims',
                params: ({ event }) => (event.output as { claims: AccessClaims }).claims,
              },
              'emitLogin',
            ],
          },
          { guard: ({ event }) => event.output.kind === 'expired', target: 'refreshing' },
          { target: 'unauthenticated', actions: { type: 'clearUser', params: null } },
        ],
        onError: { target: 'unauthenticated', actions: { type: 'clearUser', params: null } },
      },
    },
    refreshing: {
      description:
        'The access token has expired: one refresh with the refresh token. A failed refresh clears both tokens.',
      tags: ['loading'],
      invoke: {
        id: 'refreshSession',
        src: 'refreshSession',
        onDone: {
          target: 'authenticated',
          actions: [{ type: 'setClaims', params: ({ event }) => event.output }, 'emitLogin'],
        },
        onError: { target: 'unauthenticated', actions: { type: 'clearUser', params: 'expired' } },
      },
    },
    authenticated: {
      description: 'Signed in: the guarded pages render.',
      on: {
        'session.login': {
          target: 'authenticated',
          reenter: true,
          actions: [{ type: 'setClaims', params: ({ event }) => event.claims }, 'emitLogin'],
        },
        logout: 'loggingOut',
        'session.expired': 'expiring',
      },
    },
    loggingOut: {
      description: 'Clears the tokens (and tells the server), then the user is sent to /login.',
      tags: ['loading'],
      invoke: {
        id: 'logout',
        src: 'logout',
        onDone: {
          target: 'unauthenticated',
          actions: [{ type: 'clearUser', params: 'logout' }, 'emitLogout'],
        },
        onError: {
          target: 'unauthenticated',
          actions: [{ type: 'clearUser', params: 'logout' }, 'emitLogout'],
        },
      },
    },
    expiring: {
      description:
        'The session expired: both tokens are cleared and a logout is broadcast; the app goes to /login.',
      invoke: {
        id: 'clearSession',
        src: 'clearSession',
        onDone: {
          target: 'unauthenticated',
          actions: [{ type: 'clearUser', params: 'expired' }, 'emitLogout', 'emitExpired'],
        },
        onError: {
          target: 'unauthenticated',
          actions: [{ type: 'clearUser', params: 'expired' }, 'emitLogout', 'emitExpired'],
        },
      },
    },
    unauthenticated: {
      description: 'Signed out: guarded pages redirect to /login.',
      on: {
        'session.login': {
          target: 'authenticated',
          actions: [{ type: 'setClaims', params: ({ event }) => event.claims }, 'emitLogin'],
        },
      },
    },
  },
})
