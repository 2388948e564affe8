import { fromCallback, fromPromise } from 'xstate'
import type { AccessClaims } from '../../contract/auth.ts'
import { paths } from '../../contract/paths.ts'
import type { SessionEvents, StoredSession } from '../../machines/session/index.ts'
import { type ApiClient, api } from '../api/client.ts'
import { authEvents } from '../api/events.ts'
import { clearTokens, decodeAccessToken, readTokens } from '../api/tokens.ts'

/** The real side effects of the session machine: tokens in localStorage and the API. */
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
      const ok = await client.refreshTokens()
      const claims = ok ? decodeAccessToken(readTokens().access) : null
      if (!claims) {
        clearTokens()
        throw new Error('The session could not be refreshed')
      }
      return claims
    }),
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
    authEvents: fromCallback<SessionEvents>(({ sendBack }) =>
      authEvents.on(() => sendBack({ type: 'session.expired' })),
    ),
  }
}
