import {
  createActor,
  type EventObject,
  fromCallback,
  fromPromise,
  SimulatedClock,
  type SnapshotFrom,
} from 'xstate'
import type { AccessClaims, ProfileResponse } from '../../contract/auth.ts'
import { SECOND } from '../../machines/constants.ts'
import {
  type ClockReadEvent,
  type SessionEvents,
  type StoredSession,
  sessionMachine,
} from '../../machines/session/index.ts'

/**
 * What the session machine's tests share (session.test.ts, session-timers.test.ts): a signed-in
 * user's tokens and profile on a clock that starts at EPOCH_S, and `start`, a session whose actors
 * are fakes on a simulated clock.
 */

export type SessionSnapshot = SnapshotFrom<typeof sessionMachine>

/** Seconds since the epoch at the simulated clock's 0. */
export const EPOCH_S = 1_800_000_000
const user = { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' }
export const claims: AccessClaims = { exp: EPOCH_S + 7_200, user }
export const refreshed: AccessClaims = { exp: EPOCH_S + 14_400, user }
export const profile: ProfileResponse = {
  user: { id: 1, email: 'ada@example.com', first_name: 'Ada', last_name: 'King', role: 'admin' },
  organization: { id: 1, name: 'Analytical Engines' },
}

/** Which step of its refresh a signed-in session is at; null when signed out. */
export const refreshState = (snapshot: SessionSnapshot) =>
  snapshot.matches('authenticated')
    ? (snapshot.value as { authenticated: { refresh: string } }).authenticated.refresh
    : null

const never = <T>() => new Promise<T>(() => {})

/** A session on a simulated clock whose `clock` actor reads that clock. */
export function start(options: {
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

/** Claims for a token that expires `seconds` after the clock's 0. */
export const expiringIn = (seconds: number): AccessClaims => ({ exp: EPOCH_S + seconds, user })
/** Lets the fakes' promises settle. */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 0))
