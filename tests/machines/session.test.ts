import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromCallback, fromPromise } from 'xstate'
import type { AccessClaims } from '../../contract/auth.ts'
import {
  type SessionEvents,
  type StoredSession,
  selectIsAuthenticated,
  selectIsLoading,
  selectUser,
  sessionMachine,
} from '../../machines/session/index.ts'
import { testMachineCoverage } from '../support/machine-coverage.ts'

const claims: AccessClaims = {
  exp: 2_000_000_000,
  user: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
}

/** Actors that never settle: the graph paths deliver their done and error events. */
const pending = sessionMachine.provide({
  actors: {
    readSession: fromPromise<StoredSession>(() => new Promise(() => {})),
    refreshSession: fromPromise<AccessClaims>(() => new Promise(() => {})),
    logout: fromPromise<void>(() => new Promise(() => {})),
    clearSession: fromPromise<void>(() => new Promise(() => {})),
    authEvents: fromCallback<SessionEvents>(() => () => {}),
  },
})

const allEvents: AnyEventObject[] = [
  { type: 'xstate.done.actor.readSession', output: { kind: 'none' } },
  { type: 'xstate.done.actor.readSession', output: { kind: 'expired' } },
  { type: 'xstate.done.actor.readSession', output: { kind: 'valid', claims } },
  { type: 'xstate.error.actor.readSession', error: new Error('storage unavailable') },
  { type: 'xstate.done.actor.refreshSession', output: claims },
  { type: 'xstate.error.actor.refreshSession', error: new Error('refused') },
  { type: 'xstate.done.actor.logout', output: undefined },
  { type: 'xstate.error.actor.logout', error: new Error('offline') },
  { type: 'xstate.done.actor.clearSession', output: undefined },
  { type: 'xstate.error.actor.clearSession', error: new Error('storage unavailable') },
  { type: 'session.login', claims },
  { type: 'logout' },
  { type: 'session.expired' },
]

/**
 * Done and error events only while their actor runs: an error event for an actor that is not
 * running fails a real actor, so the graph must not offer it.
 */
const RUNNING: Record<string, string> = {
  checking: 'readSession',
  refreshing: 'refreshSession',
  loggingOut: 'logout',
  expiring: 'clearSession',
}
const eventsFor = (snapshot: { value: unknown }) =>
  allEvents.filter((event) => {
    const actor = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type)?.[2]
    return !actor || RUNNING[String(snapshot.value)] === actor
  })

/** A session whose stored tokens say `stored`, with real promise actors. */
function startWith(stored: StoredSession, refresh: () => Promise<AccessClaims>) {
  const listeners: ((event: SessionEvents) => void)[] = []
  const actor = createActor(
    sessionMachine.provide({
      actors: {
        readSession: fromPromise<StoredSession>(async () => stored),
        refreshSession: fromPromise<AccessClaims>(refresh),
        logout: fromPromise<void>(async () => {}),
        clearSession: fromPromise<void>(async () => {}),
        authEvents: fromCallback<SessionEvents>(({ sendBack }) => {
          listeners.push(sendBack)
          return () => {}
        }),
      },
    }),
  )
  const emitted: string[] = []
  actor.on('*', (event) => emitted.push(event.type))
  actor.start()
  return {
    actor,
    emitted,
    raiseAuthError: () => {
      for (const send of listeners) send({ type: 'session.expired' })
    },
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('sessionMachine', () => {
  test('every state and transition is reached by a replayed graph path', async () => {
    const report = await testMachineCoverage(pending, {
      events: eventsFor as never,
      serializeState: (snapshot) => JSON.stringify([snapshot.value, snapshot.context]),
      assertState: (snapshot) => {
        // the guard's 'Verifying authentication...' shows exactly while loading
        expect(selectIsLoading(snapshot)).toBe(
          (['checking', 'refreshing', 'loggingOut'] as const).some((state) =>
            snapshot.matches(state),
          ),
        )
        // a signed-out session holds no user
        if (snapshot.matches('unauthenticated')) expect(selectUser(snapshot)).toBeNull()
        if (selectIsAuthenticated(snapshot)) expect(selectUser(snapshot)).not.toBeNull()
      },
    })
    expect(report.states.unreached).toEqual([])
    expect(report.transitions.unreached).toEqual([])
  })

  test('with no access token the user is unauthenticated', async () => {
    const { actor, emitted } = startWith({ kind: 'none' }, async () => claims)
    await settle()
    expect(actor.getSnapshot().value).toBe('unauthenticated')
    expect(emitted).toEqual([])
  })

  test('a valid token authenticates and emits a login event', async () => {
    const { actor, emitted } = startWith({ kind: 'valid', claims }, async () => claims)
    await settle()
    expect(actor.getSnapshot().value).toBe('authenticated')
    expect(selectUser(actor.getSnapshot())?.first_name).toBe('Ada')
    expect(emitted).toEqual(['login'])
  })

  test('an expired token triggers a refresh; success authenticates', async () => {
    let refreshed = 0
    let finish: (value: AccessClaims) => void = () => {}
    const { actor, emitted } = startWith({ kind: 'expired' }, () => {
      refreshed += 1
      return new Promise<AccessClaims>((resolve) => {
        finish = resolve
      })
    })
    await settle()
    expect(actor.getSnapshot().value).toBe('refreshing')
    expect(selectIsLoading(actor.getSnapshot())).toBe(true)
    finish(claims)
    await settle()
    expect(refreshed).toBe(1)
    expect(actor.getSnapshot().value).toBe('authenticated')
    expect(emitted).toEqual(['login'])
  })

  test('a failed refresh leaves the user unauthenticated', async () => {
    const { actor } = startWith({ kind: 'expired' }, async () => {
      throw new Error('refused')
    })
    await settle()
    expect(actor.getSnapshot().value).toBe('unauthenticated')
    expect(actor.getSnapshot().context.endedBy).toBe('expired')
  })

  test('logout emits a logout event and clears the user', async () => {
    const { actor, emitted } = startWith({ kind: 'valid', claims }, async () => claims)
    await settle()
    actor.send({ type: 'logout' })
    expect(actor.getSnapshot().value).toBe('loggingOut')
    await settle()
    expect(actor.getSnapshot().value).toBe('unauthenticated')
    expect(actor.getSnapshot().context).toEqual({ user: null, expiresAt: null, endedBy: 'logout' })
    expect(emitted).toEqual(['login', 'logout'])
  })

  test("the API client's auth-error ends the session: logout is broadcast and expiry noted", async () => {
    const { actor, emitted, raiseAuthError } = startWith(
      { kind: 'valid', claims },
      async () => claims,
    )
    await settle()
    raiseAuthError()
    await settle()
    expect(actor.getSnapshot().value).toBe('unauthenticated')
    expect(actor.getSnapshot().context.endedBy).toBe('expired')
    expect(emitted).toEqual(['login', 'logout', 'expired'])
  })
})
