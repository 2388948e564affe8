import { describe, expect, test } from 'vitest'
import {
  type Actor,
  type AnyEventObject,
  type AnyStateMachine,
  createActor,
  type EventObject,
  fromCallback,
  fromPromise,
  SimulatedClock,
  type SnapshotFrom,
} from 'xstate'

import type { AccessClaims, ProfileResponse } from '../../contract/auth.ts'
import { SECOND, SESSION_CHECK_INTERVAL_MS } from '../../machines/constants.ts'
import {
  type ClockReadEvent,
  type SessionEvents,
  type StoredSession,
  selectIsAuthenticated,
  selectIsLoading,
  selectProfile,
  selectSessionExpired,
  selectUser,
  sessionMachine,
} from '../../machines/session/index.ts'
import { type ReplayContext, testMachineCoverage } from '../support/machine-coverage.ts'
import { pendingActors } from '../support/pending-actors.ts'

type SessionSnapshot = SnapshotFrom<typeof sessionMachine>

/** Seconds since the epoch at the simulated clock's 0. */
const EPOCH_S = 1_800_000_000
const user = { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' }
const claims: AccessClaims = { exp: EPOCH_S + 7_200, user }
const refreshed: AccessClaims = { exp: EPOCH_S + 14_400, user }
const profile: ProfileResponse = {
  user: { id: 1, email: 'ada@example.com', first_name: 'Ada', last_name: 'King', role: 'admin' },
  organization: { id: 1, name: 'Analytical Engines' },
}

/** Clock readings for `claims`: plenty left, under an hour left, under five minutes left. */
const FAR = (claims.exp - 7_000) * SECOND
const SOON = (claims.exp - 1_800) * SECOND
const NEAR = (claims.exp - 200) * SECOND

const refreshState = (snapshot: SessionSnapshot) =>
  snapshot.matches('authenticated')
    ? (snapshot.value as { authenticated: { refresh: string } }).authenticated.refresh
    : null

const never = <T>() => new Promise<T>(() => {})

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

/** A session on a simulated clock whose `clock` actor reads that clock. */
function start(options: {
  stored?: StoredSession
  refresh?: () => Promise<AccessClaims>
  loadProfile?: () => Promise<ProfileResponse>
  logout?: () => Promise<void>
}) {
  const clock = new SimulatedClock()
  const callbacks: ((event: EventObject) => void)[] = []
  let clockReads = 0
  let refreshes = 0
  let profileLoads = 0
  const actor = createActor(
    sessionMachine.provide({
      actors: {
        readSession: fromPromise<StoredSession>(async () => options.stored ?? { kind: 'none' }),
        refreshSession: fromPromise<AccessClaims>(() => {
          refreshes += 1
          return (options.refresh ?? never)()
        }),
        loadProfile: fromPromise<ProfileResponse>(() => {
          profileLoads += 1
          return (options.loadProfile ?? (async () => profile))()
        }),
        logout: fromPromise<void>(options.logout ?? (async () => {})),
        clearSession: fromPromise<void>(async () => {}),
        authEvents: fromCallback<EventObject>(({ sendBack }) => {
          callbacks.push(sendBack)
          return () => {}
        }),
        tabSync: fromCallback<EventObject>(({ sendBack }) => {
          callbacks.push(sendBack)
          return () => {}
        }),
        clock: fromCallback<ClockReadEvent>(({ sendBack, receive }) => {
          const tell = () => {
            clockReads += 1
            sendBack({ type: 'clock.now', now: EPOCH_S * SECOND + clock.now() })
          }
          tell()
          receive(tell)
        }),
      },
    }),
    { clock },
  )
  const emitted: string[] = []
  actor.on('*', (event) => emitted.push(event.type))
  actor.start()
  return {
    actor,
    clock,
    emitted,
    reads: () => clockReads,
    refreshes: () => refreshes,
    profileLoads: () => profileLoads,
    /** Something from outside: the API client's auth-error or another tab. */
    fromOutside: (event: SessionEvents) => {
      for (const send of callbacks) send(event)
    },
    /** Signs in with a token that expires `seconds` after the clock's 0. */
    login: (seconds: number) => actor.send({ type: 'session.login', claims: expiringIn(seconds) }),
  }
}

const expiringIn = (seconds: number): AccessClaims => ({ exp: EPOCH_S + seconds, user })
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

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

  describe('expiry check', () => {
    test('reads the clock at sign-in and then every 60 s, not 1 ms sooner', async () => {
      const { clock, reads, login } = start({})
      await settle()
      login(7_200)
      expect(reads()).toBe(1)
      clock.increment(SESSION_CHECK_INTERVAL_MS - 1)
      expect(reads()).toBe(1)
      clock.increment(1)
      expect(reads()).toBe(2)
      clock.increment(SESSION_CHECK_INTERVAL_MS - 1)
      expect(reads()).toBe(2)
      clock.increment(1)
      expect(reads()).toBe(3)
    })

    test('warns at the first check with under 300 s left, once per token', async () => {
      const { clock, emitted, login } = start({})
      await settle()
      // 400 s left: no warning at sign-in; at the 60 s check 340 s; at 120 s, 280 s: warn
      login(400)
      expect(emitted).toEqual(['login'])
      clock.increment(SESSION_CHECK_INTERVAL_MS)
      expect(emitted).not.toContain('warning')
      clock.increment(SESSION_CHECK_INTERVAL_MS - 1)
      expect(emitted).not.toContain('warning')
      clock.increment(1)
      expect(emitted.filter((type) => type === 'warning')).toHaveLength(1)
      // later checks do not warn about the same token again
      for (let check = 0; check < 5; check++) clock.increment(SESSION_CHECK_INTERVAL_MS)
      expect(emitted.filter((type) => type === 'warning')).toHaveLength(1)
    })

    test('a token with 5 minutes or more left gives no warning', async () => {
      const { clock, emitted, login } = start({})
      await settle()
      login(300 + SESSION_CHECK_INTERVAL_MS / SECOND)
      clock.increment(SESSION_CHECK_INTERVAL_MS)
      expect(emitted).not.toContain('warning')
    })
  })

  describe('refresh schedule', () => {
    test('with an hour or more left no refresh is scheduled', async () => {
      const { actor, clock, refreshes, login } = start({})
      await settle()
      login(7_200)
      expect(refreshState(actor.getSnapshot())).toBe('unscheduled')
      // at 3 600 s left exactly: still not under the threshold
      clock.increment(3_600 * SECOND - SESSION_CHECK_INTERVAL_MS)
      expect(refreshState(actor.getSnapshot())).toBe('unscheduled')
      expect(refreshes()).toBe(0)
    })

    test('under an hour left: the refresh fires after remaining - 600 s, not 1 ms sooner', async () => {
      const { actor, clock, refreshes, login } = start({})
      await settle()
      login(1_800)
      expect(refreshState(actor.getSnapshot())).toBe('scheduled')
      clock.increment((1_800 - 600) * SECOND - 1)
      expect(refreshes()).toBe(0)
      clock.increment(1)
      expect(refreshes()).toBe(1)
      expect(refreshState(actor.getSnapshot())).toBe('refreshing')
    })

    test('scheduled at the first check under an hour, from the time then', async () => {
      const { actor, clock, refreshes, login } = start({})
      await settle()
      login(3_600)
      expect(refreshState(actor.getSnapshot())).toBe('unscheduled')
      clock.increment(SESSION_CHECK_INTERVAL_MS)
      expect(refreshState(actor.getSnapshot())).toBe('scheduled')
      // 3 540 s left at 60 s: due 2 940 s later, at 3 000 s
      clock.increment((3_540 - 600) * SECOND - 1)
      expect(refreshes()).toBe(0)
      clock.increment(1)
      expect(refreshes()).toBe(1)
    })

    test('never sooner than 60 s', async () => {
      const { clock, refreshes, login } = start({})
      await settle()
      login(500)
      clock.increment(60 * SECOND - 1)
      expect(refreshes()).toBe(0)
      clock.increment(1)
      expect(refreshes()).toBe(1)
    })

    test('a successful refresh takes the new expiry without a new login event', async () => {
      const { actor, clock, emitted, login } = start({ refresh: async () => refreshed })
      await settle()
      login(1_800)
      clock.increment((1_800 - 600) * SECOND)
      await settle()
      expect(actor.getSnapshot().context.expiresAt).toBe(refreshed.exp)
      expect(refreshState(actor.getSnapshot())).toBe('unscheduled')
      expect(emitted).toEqual(['login'])
    })

    test('a failed refresh ends the session as expired', async () => {
      const { actor, clock, emitted, login } = start({
        refresh: async () => {
          throw new Error('refused')
        },
      })
      await settle()
      login(1_800)
      clock.increment((1_800 - 600) * SECOND)
      await settle()
      expect(actor.getSnapshot().value).toBe('unauthenticated')
      expect(selectSessionExpired(actor.getSnapshot())).toBe(true)
      expect(emitted).toEqual(['login', 'logout', 'expired'])
    })
  })

  describe('Extend Session', () => {
    test('refreshes: the warning goes and the session is extended', async () => {
      const { actor, emitted, login, refreshes } = start({ refresh: async () => refreshed })
      await settle()
      login(200)
      expect(emitted).toEqual(['login', 'warning'])
      actor.send({ type: 'session.extend' })
      await settle()
      expect(refreshes()).toBe(1)
      expect(emitted).toEqual(['login', 'warning', 'extended'])
      expect(actor.getSnapshot().context.expiresAt).toBe(refreshed.exp)
      expect(selectIsAuthenticated(actor.getSnapshot())).toBe(true)
    })

    test('a failed extension is reported, then the user is logged out', async () => {
      const { actor, emitted, login } = start({
        refresh: async () => {
          throw new Error('refused')
        },
      })
      await settle()
      login(200)
      actor.send({ type: 'session.extend' })
      await settle()
      expect(emitted).toEqual(['login', 'warning', 'extend.failed', 'logout'])
      expect(actor.getSnapshot().value).toBe('unauthenticated')
      expect(actor.getSnapshot().context.endedBy).toBe('logout')
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
