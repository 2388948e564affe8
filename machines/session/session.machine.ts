import { assign, type EventObject, emit, fromCallback, fromPromise, sendTo, setup } from 'xstate'
import type { AccessClaims, ProfileResponse } from '../../contract/auth.ts'
import { mustBeProvidedIn } from '../actors.ts'
import {
  REFRESH_SCHEDULE_THRESHOLD_S,
  refreshDelayMs,
  SESSION_CHECK_INTERVAL_MS,
  SESSION_WARNING_THRESHOLD_S,
} from '../constants.ts'
import type {
  ClockReadEvent,
  SessionContext,
  SessionSchema,
  StoredSession,
} from './session.types.ts'

const mustBeProvided = mustBeProvidedIn('sessionMachine')

/** Seconds left on the access token at `nowMs`. */
const remainingSeconds = (context: SessionContext, nowMs: number): number =>
  (context.expiresAt ?? 0) - nowMs / 1_000

const signedOut = (endedBy: SessionContext['endedBy']): Partial<SessionContext> => ({
  user: null,
  expiresAt: null,
  endedBy,
  profile: null,
  now: null,
  warnedFor: null,
})

/** What the context holds of a signed-in person's claims. */
const signedInAs = (claims: AccessClaims) => ({
  user: claims.user ?? null,
  expiresAt: claims.exp,
  endedBy: null,
})

/**
 * The app-wide session (spec section 4, 'Authentication', and the timers of section 9). Side
 * effects live in the provided actors: reading and clearing tokens, refreshing, logging out,
 * loading the profile, the API client's auth-error events, other tabs' logins and logouts, and
 * the clock (delays cannot read one, so the `clock` actor reports the time as `clock.now`).
 */
export const sessionMachine = setup({
  types: {} as SessionSchema,
  actors: {
    readSession: fromPromise<StoredSession>(mustBeProvided('readSession')),
    refreshSession: fromPromise<AccessClaims>(mustBeProvided('refreshSession')),
    loadProfile: fromPromise<ProfileResponse>(mustBeProvided('loadProfile')),
    logout: fromPromise<void>(mustBeProvided('logout')),
    clearSession: fromPromise<void>(mustBeProvided('clearSession')),
    /** Sends `session.expired` when the API client raises auth-error. */
    authEvents: fromCallback<EventObject>(() => () => {}),
    /** Sends `tab.login` and `tab.logout` when another tab changes the stored tokens. */
    tabSync: fromCallback<EventObject>(() => () => {}),
    /** Sends `clock.now` when it starts and whenever it receives `clock.read`. */
    clock: fromCallback<ClockReadEvent>(() => () => {}),
  },
  actions: {
    setClaims: assign((_, claims: AccessClaims) => signedInAs(claims)),
    /** The stored tokens are valid (the `storedValid` guard): their claims. */
    setStoredClaims: assign((_, stored: StoredSession) =>
      stored.kind === 'valid' ? signedInAs(stored.claims) : {},
    ),
    clearUser: assign((_, endedBy: SessionContext['endedBy']) => signedOut(endedBy)),
    setProfile: assign((_, profile: ProfileResponse) => ({ profile })),
    setNow: assign((_, now: number) => ({ now })),
    markWarned: assign(({ context }) => ({ warnedFor: context.expiresAt })),
    readClock: sendTo('clock', { type: 'clock.read' } satisfies ClockReadEvent),
    emitLogin: emit({ type: 'login' as const }),
    emitLogout: emit({ type: 'logout' as const }),
    emitExpired: emit({ type: 'expired' as const }),
    /** The server's error code travels along: a pending forced password change is not a failure. */
    emitProfileFailed: emit((_, error: unknown) => ({
      type: 'profile.failed' as const,
      code:
        error && typeof error === 'object' && 'code' in error && typeof error.code === 'string'
          ? error.code
          : undefined,
    })),
    emitWarning: emit({ type: 'warning' as const }),
    emitExtended: emit({ type: 'extended' as const }),
    emitExtendFailed: emit({ type: 'extend.failed' as const }),
  },
  guards: {
    storedValid: (_, stored: StoredSession) => stored.kind === 'valid',
    storedExpired: (_, stored: StoredSession) => stored.kind === 'expired',
    /** A refresh is scheduled only when under 3600 s remain. */
    refreshDue: ({ context }, params: { now: number }) =>
      remainingSeconds(context, params.now) < REFRESH_SCHEDULE_THRESHOLD_S,
    /** Under 300 s remain and this token has not been warned about yet. */
    warningDue: ({ context }, params: { now: number }) =>
      remainingSeconds(context, params.now) < SESSION_WARNING_THRESHOLD_S &&
      context.warnedFor !== context.expiresAt,
  },
  delays: {
    sessionCheck: SESSION_CHECK_INTERVAL_MS,
    /** max(remaining - 600, 60) s, from the clock reading that scheduled it. */
    refreshDelay: ({ context }) =>
      Math.round(refreshDelayMs(remainingSeconds(context, context.now ?? 0))),
  },
}).createMachine({
  id: 'session',
  context: {
    user: null,
    expiresAt: null,
    endedBy: null,
    profile: null,
    now: null,
    warnedFor: null,
  },
  initial: 'checking',
  invoke: [
    { id: 'authEvents', src: 'authEvents' },
    { id: 'tabSync', src: 'tabSync' },
  ],
  states: {
    checking: {
      description: 'Reads the stored tokens: none, an expired access token, or a valid one.',
      tags: ['loading'],
      invoke: {
        id: 'readSession',
        src: 'readSession',
        onDone: [
          {
            guard: { type: 'storedValid', params: ({ event }) => event.output },
            target: 'authenticated',
            actions: [
              { type: 'setStoredClaims', params: ({ event }) => event.output },
              'emitLogin',
            ],
          },
          {
            guard: { type: 'storedExpired', params: ({ event }) => event.output },
            target: 'refreshing',
          },
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
      description:
        'Signed in: the guarded pages render. The profile loads, the clock is read every 60 s, a refresh is scheduled once under an hour remains, and under 5 minutes a warning offers to extend the session.',
      type: 'parallel',
      invoke: { id: 'clock', src: 'clock' },
      on: {
        'session.login': {
          target: 'authenticated',
          reenter: true,
          actions: [{ type: 'setClaims', params: ({ event }) => event.claims }, 'emitLogin'],
        },
        logout: 'loggingOut',
        'session.expired': 'expiring',
        'tab.logout': {
          description: 'Another tab logged out: the tokens are already gone.',
          target: 'unauthenticated',
          actions: [{ type: 'clearUser', params: 'logout' }, 'emitLogout'],
        },
      },
      states: {
        profile: {
          description: 'GET profile/ once per sign-in; a failure is reported, not fatal.',
          initial: 'loading',
          states: {
            loading: {
              description: 'The profile is asked for.',
              invoke: {
                id: 'loadProfile',
                src: 'loadProfile',
                onDone: {
                  target: 'loaded',
                  actions: { type: 'setProfile', params: ({ event }) => event.output },
                },
                onError: {
                  target: 'failed',
                  actions: {
                    type: 'emitProfileFailed',
                    params: ({ event }: { event: { error: unknown } }) => event.error,
                  },
                },
              },
            },
            loaded: { description: 'The user menu shows the profile name and email.' },
            failed: { description: "The user menu falls back to the token's user." },
          },
        },
        check: {
          description:
            'The expiry check: every 60 s the clock is asked for the time; each answer is kept and may warn.',
          initial: 'ticking',
          states: {
            ticking: {
              description: 'Every 60 s the clock is asked for the time; its answer may warn.',
              after: {
                sessionCheck: { target: 'ticking', reenter: true, actions: 'readClock' },
              },
              on: {
                'clock.now': [
                  {
                    description:
                      "Under 5 minutes left: the warning toast with 'Extend Session', once per token.",
                    guard: { type: 'warningDue', params: ({ event }) => ({ now: event.now }) },
                    actions: [
                      { type: 'setNow', params: ({ event }) => event.now },
                      'markWarned',
                      'emitWarning',
                    ],
                  },
                  { actions: { type: 'setNow', params: ({ event }) => event.now } },
                ],
              },
            },
          },
        },
        refresh: {
          description: 'The token refresh: scheduled, or asked for by Extend Session.',
          initial: 'unscheduled',
          states: {
            unscheduled: {
              description: 'An hour or more left: no refresh is scheduled yet.',
              on: {
                'clock.now': {
                  guard: { type: 'refreshDue', params: ({ event }) => ({ now: event.now }) },
                  target: 'scheduled',
                },
                'session.extend': 'extending',
                'tab.login': {
                  description: "Another tab refreshed: take its token's expiry.",
                  actions: [
                    { type: 'setClaims', params: ({ event }) => event.claims },
                    'readClock',
                  ],
                },
              },
            },
            scheduled: {
              description: 'The refresh fires max(remaining - 600, 60) s after it was scheduled.',
              after: { refreshDelay: 'refreshing' },
              on: {
                'session.extend': 'extending',
                'tab.login': {
                  description: 'Another tab refreshed: reschedule from its token.',
                  target: 'unscheduled',
                  actions: [
                    { type: 'setClaims', params: ({ event }) => event.claims },
                    'readClock',
                  ],
                },
              },
            },
            refreshing: {
              description: 'The scheduled refresh. A failure clears the tokens: the session ends.',
              on: { 'session.extend': 'extending' },
              invoke: {
                id: 'scheduledRefresh',
                src: 'refreshSession',
                onDone: {
                  target: 'unscheduled',
                  actions: [
                    { type: 'setClaims', params: ({ event }) => event.output },
                    'readClock',
                  ],
                },
                onError: { target: '#session.expiring' },
              },
            },
            extending: {
              description:
                "Extend Session: a refresh now. Then 'Session extended successfully!', or 'Failed to extend session...' and logout.",
              invoke: {
                id: 'extendRefresh',
                src: 'refreshSession',
                onDone: {
                  target: 'unscheduled',
                  actions: [
                    { type: 'setClaims', params: ({ event }) => event.output },
                    'emitExtended',
                    'readClock',
                  ],
                },
                onError: { target: '#session.loggingOut', actions: 'emitExtendFailed' },
              },
            },
          },
        },
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
        'tab.login': {
          description: 'Another tab signed in: this one is signed in too.',
          target: 'authenticated',
          actions: [{ type: 'setClaims', params: ({ event }) => event.claims }, 'emitLogin'],
        },
      },
    },
  },
})
