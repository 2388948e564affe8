import { type EventObject, fromCallback, fromPromise } from 'xstate'
import { accountPaths as paths } from '../../contract/account-paths.ts'
import {
  ACCESS_TOKEN_KEY,
  type AccessClaims,
  type ProfileResponse,
  profileResponseSchema,
} from '../../contract/auth.ts'
import { REFRESH_SCHEDULE_THRESHOLD_S } from '../../machines/constants.ts'
import type {
  ClockNowEvent,
  ClockReadEvent,
  SessionExpiredEvent,
  StoredSession,
  TabLoginEvent,
  TabLogoutEvent,
} from '../../machines/session/index.ts'
import { type ApiClient, api } from '../api/client.ts'
import { authEvents } from '../api/events.ts'
import { clearTokens, decodeAccessToken, readTokens, secondsRemaining } from '../api/tokens.ts'

/** The real side effects of the session machine: tokens in localStorage, the API, the clock. */
export function sessionActors(client: ApiClient = api) {
  return {
    readSession: fromPromise<StoredSession>(async () => {
      const { access, refresh } = readTokens()
      if (!access) return { kind: 'none' }
      const claims = decodeAccessToken(access)
      if (!claims) {
        clearTokens()
        return { kind: 'none' }
      }
      if (claims.exp * 1000 <= Date.now()) return refresh ? { kind: 'expired' } : { kind: 'none' }
      return { kind: 'valid', claims }
    }),
    refreshSession: fromPromise<AccessClaims>(async () => {
      // another tab may have refreshed already: use its token
      const current = decodeAccessToken(readTokens().access)
      if (current && secondsRemaining(current) >= REFRESH_SCHEDULE_THRESHOLD_S) return current
      // the client serialises refreshes across tabs (Web Locks)
      const ok = await client.refreshTokens()
      const claims = ok ? decodeAccessToken(readTokens().access) : null
      if (!claims) {
        clearTokens()
        throw new Error('The session could not be refreshed')
      }
      return claims
    }),
    loadProfile: fromPromise<ProfileResponse>(() =>
      client.get(paths.account.profile, profileResponseSchema),
    ),
    logout: fromPromise<void>(async () => {
      const { refresh } = readTokens()
      try {
        // tell the server so it revokes the refresh token; signing out locally never waits on it
        if (refresh)
          await client.requestVoid(paths.auth.logout, { method: 'POST', body: { refresh } })
      } catch {
        // the tokens are cleared below either way
      } finally {
        clearTokens()
      }
    }),
    clearSession: fromPromise<void>(async () => {
      clearTokens()
    }),
    authEvents: fromCallback<EventObject>(({ sendBack }) =>
      authEvents.on(() => sendBack({ type: 'session.expired' } satisfies SessionExpiredEvent)),
    ),
    tabSync: fromCallback<EventObject>(({ sendBack }) => {
      // `storage` fires only in the other tabs of the origin: their logins, refreshes and logouts
      const onStorage = (event: StorageEvent) => {
        if (event.key !== ACCESS_TOKEN_KEY && event.key !== null) return
        const claims = decodeAccessToken(readTokens().access)
        sendBack(
          claims
            ? ({ type: 'tab.login', claims } satisfies TabLoginEvent)
            : ({ type: 'tab.logout' } satisfies TabLogoutEvent),
        )
      }
      globalThis.addEventListener?.('storage', onStorage)
      return () => globalThis.removeEventListener?.('storage', onStorage)
    }),
    clock: fromCallback<ClockReadEvent>(({ sendBack, receive }) => {
      const tell = () => sendBack({ type: 'clock.now', now: Date.now() } satisfies ClockNowEvent)
      tell()
      receive(tell)
    }),
  }
}
