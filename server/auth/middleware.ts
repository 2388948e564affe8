import type { MiddlewareHandler } from 'hono'
import { AUTH_ERROR_CODES } from '../../contract/auth.ts'
import { AUTH_TEXTS } from '../../contract/auth-texts.ts'
import { ERROR_CODES } from '../../contract/errors.ts'
import { API_KEY_TEXTS } from '../../contract/platform.ts'
import type { AppEnv } from '../http/env.ts'
import { apiError } from '../http/errors.ts'
import type { AuthContext } from './context.ts'

/** Routes behind requireAuth read the caller from `c.get('auth')`. */
export interface AuthEnv {
  Variables: AppEnv['Variables'] & { auth: AuthContext }
}

export interface Authenticator {
  authenticate(token: string): Promise<AuthContext | null>
}

export const bearerToken = (header: string | undefined) => {
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i)
  return match?.[1]
}

/**
 * What an API key may never call (issue 41), whatever its scopes: people and the organisation's
 * administration, sign-in, SSO, billing, API keys themselves, and a person's own calls (their
 * profile, notifications, assignments, logout).
 */
const NOT_FOR_KEYS = [
  /\/api\/v1\/admin\//,
  /\/api\/v1\/payouts\//,
  /\/api\/v1\/me\//,
  /\/api\/v1\/notifications\//,
  /\/api\/v1\/logout\//,
  /\/api\/v1\/ticketing\//,
]
export const keyMayCall = (path: string) => !NOT_FOR_KEYS.some((pattern) => pattern.test(path))

const unauthenticated = () =>
  apiError(401, AUTH_TEXTS.authenticationRequired, { code: ERROR_CODES.unauthorized })

/**
 * Authenticates the bearer access token against its session on every call (AS6). An account
 * flagged for a password change may only change it or log out (AS7).
 */
/** How many times the guard has run in this process: a request must run it once (issue 43). */
let guardRuns = 0
export const authGuardRuns = () => guardRuns

export function requireAuth(
  authenticator: Authenticator,
  options: { allowPasswordChange?: boolean } = {},
): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    guardRuns += 1
    // several areas guard overlapping paths: the session is read once per request
    const known = c.get('auth') as AuthContext | undefined
    const token = known ? undefined : bearerToken(c.req.header('authorization'))
    const auth = known ?? (token ? await authenticator.authenticate(token) : null)
    if (!auth) throw unauthenticated()
    if (auth.apiKey && !keyMayCall(c.req.path))
      throw apiError(403, API_KEY_TEXTS.notForKeys, {
        msg: API_KEY_TEXTS.notForKeys,
        code: ERROR_CODES.forbidden,
      })
    if (auth.user.mustChangePassword && !options.allowPasswordChange) {
      throw apiError(403, AUTH_TEXTS.passwordChangeRequired, {
        msg: AUTH_TEXTS.passwordChangeRequired,
        code: AUTH_ERROR_CODES.passwordChangeRequired,
      })
    }
    c.set('auth', auth)
    await next()
  }
}
