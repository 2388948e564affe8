import type { MiddlewareHandler } from 'hono'
import { AUTH_ERROR_CODES } from '../../contract/auth.ts'
import { AUTH_TEXTS } from '../../contract/auth-texts.ts'
import { ERROR_CODES } from '../../contract/errors.ts'
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

const unauthenticated = () =>
  apiError(401, AUTH_TEXTS.authenticationRequired, { code: ERROR_CODES.unauthorized })

/**
 * Authenticates the bearer access token against its session on every call (AS6). An account
 * flagged for a password change may only change it or log out (AS7).
 */
export function requireAuth(
  authenticator: Authenticator,
  options: { allowPasswordChange?: boolean } = {},
): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    // several areas guard overlapping paths: the session is read once per request
    const known = c.get('auth') as AuthContext | undefined
    const token = known ? undefined : bearerToken(c.req.header('authorization'))
    const auth = known ?? (token ? await authenticator.authenticate(token) : null)
    if (!auth) throw unauthenticated()
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
