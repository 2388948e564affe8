import { describe, expect, test } from 'vitest'
import type { Actor, AnyEventObject, AnyStateMachine, SimulatedClock } from 'xstate'
import type { AccessClaims } from '../../contract/auth.ts'
import { SECOND } from '../../machines/constants.ts'
import {
  selectIsAuthenticated,
  selectIsLoading,
  selectProfile,
  selectSessionExpired,
  selectUser,
  sessionMachine,
} from '../../machines/session/index.ts'
import { type ReplayContext, testMachineCoverage } from '../support/machine-coverage.ts'
import { pendingActors } from '../support/pending-actors.ts'
import {
  claims,
  EPOCH_S,
  expiringIn,
  profile,
  refreshed,
  refreshState,
  type SessionSnapshot,
  settle,
  start,
} from './session-fixtures.ts'

// The session's graph, its start, its profile and the events from outside; its clock checks,
// refresh schedule and Extend Session are in session-timers.test.ts.

/** Clock readings for `claims`: plenty left, under an hour left, under five minutes left. */
const FAR = (claims.exp - 7_000) * SECOND
const SOON = (claims.exp - 1_800) * SECOND
const NEAR = (claims.exp - 200) * SECOND

/** Actors that never settle and callbacks that stay silent: the graph paths deliver results. */
const pending = pendingActors(sessionMachine)

const allEvents: AnyEventObject[] = [
  { type: 'xstate.done.actor.readSession', output: { kind: 'none' } },
  { type: 'xstate.done.actor.readSession', output: { kind: 'expired' } },
  { type: 'xstate.done.actor.readSession', output: { kind: 'valid', claims } },
  { type: 'xstate.error.actor.readSession', error: new Error('storage unavailable') },
  { type: 'xstate.done.actor.refreshSession', output: claims },
  { type: 'xstate.error.actor.refreshSession', error: new Error('refused') },
  { type: 'xstate.done.actor.loadProfile', output: profile },
  { type: 'xstate.error.actor.loadProfile', error: new Error('offline') },
  { type: 'xstate.done.actor.scheduledRefresh', output: refreshed },
  { type: 'xstate.error.actor.scheduledRefresh', error: new Error('refused') },
  { type: 'xstate.done.actor.extendRefresh', output: refreshed },
  { type: 'xstate.error.actor.extendRefresh', error: new Error('refused') },
  { type: 'xstate.done.actor.logout', output: undefined },
  { type: 'xstate.error.actor.logout', error: new Error('offline') },
  { type: 'xstate.done.actor.clearSession', output: undefined },
  { type: 'xstate.error.actor.clearSession', error: new Error('storage unavailable') },
  { type: 'session.login', claims },
  { type: 'logout' },
  { type: 'session.expired' },
  { type: 'session.extend' },
  { type: 'clock.now', now: FAR },
  { type: 'clock.now', now: SOON },
  { type: 'clock.now', now: NEAR },
  { type: 'tab.login', claims: refreshed },
  { type: 'tab.logout' },
]

/**
 * Done and error events only while their actor runs: an error event for an actor that is not
 * running fails a real actor, so the graph must not offer it. The clock answers only while it
 * runs (signed in).
 */
const running = (snapshot: SessionSnapshot, actor: string): boolean => {
  switch (actor) {
    case 'readSession':
      return snapshot.matches('checking')
    case 'refreshSession':
      return snapshot.matches('refreshing')
    case 'loadProfile':
      return snapshot.matches({ authenticated: { profile: 'loading' } })
    case 'scheduledRefresh':
      return snapshot.matches({ authenticated: { refresh: 'refreshing' } })
    case 'extendRefresh':
      return snapshot.matches({ authenticated: { refresh: 'extending' } })
    case 'logout':
      return snapshot.matches('loggingOut')
    case 'clearSession':
      return snapshot.matches('expiring')
    case 'clock':
      return snapshot.matches('authenticated')
    default:
      return true
  }
}
const eventsFor = (snapshot: SessionSnapshot) =>
  allEvents.filter((event) => {
    const actor = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type)?.[2]
    if (actor) return running(snapshot, actor)
    return event.type !== 'clock.now' || running(snapshot, 'clock')
  }) as never

/** Which token, whether it was warned about, the profile: `now` only sets a timer's length. */
const serializeState = (snapshot: SessionSnapshot) => {
  const { context } = snapshot
  return JSON.stringify([
    snapshot.value,
    context.user !== null,
    context.expiresAt,
    context.endedBy,
    context.profile !== null,
    context.warnedFor !== null && context.warnedFor === context.expiresAt,
  ])
}

/**
 * The scheduled refresh fires minutes after it was scheduled, while the 60 s check keeps
 * re-arming: the generated path cannot list those ticks, so this step advances the clock itself,
 * letting the ticks fire (they leave the state as it is), and proves the refresh timer fires at
 * its scheduled delay and not 1 ms before. `noteRefreshTimer` records when each one started.
 */
const refreshTimerStarts = new WeakMap<object, number>()

interface ScheduledEvent {
  source: unknown
  event: { type: string }
  delay: number
}
const scheduledRefreshes = (actor: Actor<AnyStateMachine>) =>
  Object.values(
    actor.system.getSnapshot()._scheduledEvents as Record<string, ScheduledEvent>,
  ).filter(
    (scheduled) =>
      scheduled.source === actor && scheduled.event.type.startsWith('xstate.after.refreshDelay.'),
  )

function noteRefreshTimer(actor: Actor<AnyStateMachine>, clock: SimulatedClock) {
  for (const scheduled of scheduledRefreshes(actor)) {
    if (!refreshTimerStarts.has(scheduled)) refreshTimerStarts.set(scheduled, clock.now())
  }
}

const fireRefreshTimer = ({ actor, clock }: ReplayContext<typeof pending>) => {
  const [scheduled] = scheduledRefreshes(actor)
  const start = scheduled && refreshTimerStarts.get(scheduled)
  if (!scheduled || start === undefined) throw new Error('no refresh timer is running')
  const due = start + scheduled.delay
  clock.increment(due - 1 - clock.now())
  if (refreshState(actor.getSnapshot()) !== 'scheduled') {
    throw new Error(`the refresh fired before its ${scheduled.delay} ms`)
  }
  clock.increment(1)
  if (refreshState(actor.getSnapshot()) !== 'refreshing') {
    throw new Error(`the refresh did not fire at ${scheduled.delay} ms`)
  }
}

describe('sessionMachine', () => {
  test('every state and transition is reached by a replayed graph path', async () => {
    const report = await testMachineCoverage(pending, {
      events: eventsFor,
      serializeState,
      perform: { 'xstate.after.refreshDelay.*': fireRefreshTimer },
      assertState: (snapshot, { actor, clock, emitted }) => {
        // the guard's 'Verifying authentication...' shows exactly while loading
        expect(selectIsLoading(snapshot)).toBe(
          (['checking', 'refreshing', 'loggingOut'] as const).some((state) =>
            snapshot.matches(state),
          ),
        )
        // a signed-out session holds no user and no profile
        if (snapshot.matches('unauthenticated')) {
          expect(selectUser(snapshot)).toBeNull()
          expect(selectProfile(snapshot)).toBeNull()
        }
        if (selectIsAuthenticated(snapshot)) expect(selectUser(snapshot)).not.toBeNull()
        // one warning per token, at the clock reading that found under 5 minutes left
        const warnings = emitted.filter((event) => event.type === 'warning').length
        if (warnings > 0 && snapshot.matches('authenticated')) {
          expect(snapshot.context.warnedFor).not.toBeNull()
        }
        noteRefreshTimer(actor, clock)
      },
    })
    expect(report.states.unreached).toEqual([])
    expect(report.transitions.unreached).toEqual([])
  })

  describe('start', () => {
    test('with no access token the user is unauthenticated', async () => {
      const { actor, emitted } = start({ stored: { kind: 'none' } })
      await settle()
      expect(actor.getSnapshot().value).toBe('unauthenticated')
      expect(emitted).toEqual([])
    })

    test('a valid token authenticates, emits a login event and loads the profile', async () => {
      const { actor, emitted, profileLoads } = start({ stored: { kind: 'valid', claims } })
      await settle()
      expect(selectIsAuthenticated(actor.getSnapshot())).toBe(true)
      expect(selectUser(actor.getSnapshot())?.first_name).toBe('Ada')
      expect(selectProfile(actor.getSnapshot())).toEqual(profile)
      expect(profileLoads()).toBe(1)
      expect(emitted).toEqual(['login'])
    })

    test('an expired token triggers a refresh; success authenticates', async () => {
      let finish: (value: AccessClaims) => void = () => {}
      const { actor, emitted, refreshes } = start({
        stored: { kind: 'expired' },
        refresh: () =>
          new Promise<AccessClaims>((resolve) => {
            finish = resolve
          }),
      })
      await settle()
      expect(actor.getSnapshot().value).toBe('refreshing')
      expect(selectIsLoading(actor.getSnapshot())).toBe(true)
      finish(claims)
      await settle()
      expect(refreshes()).toBe(1)
      expect(selectIsAuthenticated(actor.getSnapshot())).toBe(true)
      expect(emitted).toEqual(['login'])
    })

    test('a failed refresh leaves the user unauthenticated', async () => {
      const { actor } = start({
        stored: { kind: 'expired' },
        refresh: async () => {
          throw new Error('refused')
        },
      })
      await settle()
      expect(actor.getSnapshot().value).toBe('unauthenticated')
      expect(selectSessionExpired(actor.getSnapshot())).toBe(true)
    })
  })

  describe('profile', () => {
    test('a failed profile load is reported and the token user stays', async () => {
      const { actor, emitted } = start({
        loadProfile: async () => {
          throw new Error('offline')
        },
      })
      await settle()
      actor.send({ type: 'session.login', claims })
      await settle()
      expect(emitted).toEqual(['login', 'profile.failed'])
      expect(selectProfile(actor.getSnapshot())).toBeNull()
      expect(selectUser(actor.getSnapshot())?.email).toBe('ada@example.com')
    })

    test('logout emits a logout event and clears the user and the profile', async () => {
      const { actor, emitted } = start({ stored: { kind: 'valid', claims } })
      await settle()
      expect(selectProfile(actor.getSnapshot())).not.toBeNull()
      actor.send({ type: 'logout' })
      expect(actor.getSnapshot().value).toBe('loggingOut')
      await settle()
      expect(actor.getSnapshot().value).toBe('unauthenticated')
      expect(actor.getSnapshot().context).toEqual({
        user: null,
        expiresAt: null,
        endedBy: 'logout',
        profile: null,
        now: null,
        warnedFor: null,
      })
      expect(emitted).toEqual(['login', 'logout'])
    })
  })

  describe('events from outside', () => {
    test("the API client's auth-error ends the session: logout is broadcast and expiry noted", async () => {
      const { actor, emitted, fromOutside } = start({ stored: { kind: 'valid', claims } })
      await settle()
      fromOutside({ type: 'session.expired' })
      await settle()
      expect(actor.getSnapshot().value).toBe('unauthenticated')
      expect(selectSessionExpired(actor.getSnapshot())).toBe(true)
      expect(emitted).toEqual(['login', 'logout', 'expired'])
    })

    test("another tab's logout logs this tab out", async () => {
      const { actor, emitted, fromOutside } = start({ stored: { kind: 'valid', claims } })
      await settle()
      fromOutside({ type: 'tab.logout' })
      expect(actor.getSnapshot().value).toBe('unauthenticated')
      expect(actor.getSnapshot().context.endedBy).toBe('logout')
      expect(emitted).toEqual(['login', 'logout'])
    })

    test("another tab's login signs this tab in", async () => {
      const { actor, emitted, fromOutside } = start({})
      await settle()
      fromOutside({ type: 'tab.login', claims })
      expect(selectIsAuthenticated(actor.getSnapshot())).toBe(true)
      expect(emitted).toEqual(['login'])
    })

    test("another tab's refresh replaces a scheduled refresh with one from the new token", async () => {
      const { actor, clock, fromOutside, login, refreshes } = start({})
      await settle()
      login(1_800)
      expect(refreshState(actor.getSnapshot())).toBe('scheduled')
      fromOutside({ type: 'tab.login', claims: expiringIn(7_200) })
      expect(refreshState(actor.getSnapshot())).toBe('unscheduled')
      clock.increment((1_800 - 600) * SECOND)
      expect(refreshes()).toBe(0)
      expect(actor.getSnapshot().context.expiresAt).toBe(EPOCH_S + 7_200)
    })
  })
})
