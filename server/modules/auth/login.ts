import { eq, sql } from 'drizzle-orm'
import { AUTH_ERROR_CODES, type LoginResponse } from '../../../contract/auth.ts'
import { AUTH_TEXTS } from '../../../contract/auth-texts.ts'
import { SSO_TEXTS } from '../../../contract/sso.ts'
import { dummyPasswordHash, verifyPassword } from '../../auth/password.ts'
import { ssoRequiredFor } from '../../auth/sso-policy.ts'
import type { DbOrTx } from '../../db/index.ts'
import { organizations, users } from '../../db/schema.ts'
import { apiError } from '../../http/errors.ts'
import type { Sessions } from './sessions.ts'
import {
  type AuthServiceDeps,
  normaliseEmail,
  tooManyAttempts,
  wrongCredentials,
} from './shared.ts'

/**
 * Login and lockout: per-address and per-account limits are hit before any password is checked (AS2).
 */
export function createLogin(deps: AuthServiceDeps, sessions: Sessions) {
  const { db } = deps.database

  const { startSession } = sessions

  async function limitAddress(address: string) {
    const state = await deps.limiter.hit(`addr:${address}`, deps.limits.perAddress)
    if (state.limited) throw tooManyAttempts(state.retryAfterS)
  }

  // ---- sessions ------------------------------------------------------------------------------

  async function findUserByEmail(tx: DbOrTx, email: string) {
    const [user] = await tx
      .select()
      .from(users)
      .where(eq(sql`lower(${users.email})`, email))
    return user
  }

  // ---- calls ---------------------------------------------------------------------------------

  /**
   * POST login/. Unknown email, wrong password, disabled and removed accounts all take one argon2
   * verification and answer the same 401 body (AS1); the 6th failure for one account within
   * 15 minutes answers 429 whatever address it comes from (AS2).
   */
  async function login(input: { email: string; password: string }, address: string) {
    await limitAddress(address)
    const email = normaliseEmail(input.email)
    const failKey = `login-fail:${email}`
    // every attempt is counted before the password is checked, atomically per account (see
    // rate-limit.ts), so that of any number of parallel attempts at most the threshold are ever
    // verified (AS2); the right password clears the count. Unknown addresses are counted alike.
    const attempt = await deps.limiter.hit(failKey, deps.limits.loginFailures)
    if (attempt.limited) throw tooManyAttempts(attempt.retryAfterS)
    // AS12: an organisation that requires single sign-on has no password sign-in, for any address
    const required = await ssoRequiredFor(deps.database.pool, email)
    if (required)
      throw apiError(403, SSO_TEXTS.ssoRequired, {
        msg: SSO_TEXTS.ssoRequired,
        code: 'sso_required',
        ...({ redirect_to_google: required === 'google' } as object),
      })

    const user = await findUserByEmail(db, email)
    const storedHash = user?.passwordHash ?? (await dummyPasswordHash())
    const matches = await verifyPassword(storedHash, input.password)
    const at = deps.now()
    const tempExpired = Boolean(user?.tempPasswordExpiresAt && user.tempPasswordExpiresAt <= at)
    if (user?.status === 'pending' && matches) {
      // the right password of someone who asked to join: say what they wait for
      await deps.limiter.clear(failKey)
      if (!user.emailConfirmedAt)
        throw apiError(403, AUTH_TEXTS.emailNotConfirmed, {
          msg: AUTH_TEXTS.emailNotConfirmed,
          code: AUTH_ERROR_CODES.emailNotConfirmed,
        })
      const [org] = await db
        .select({ name: organizations.name })
        .from(organizations)
        .where(eq(organizations.id, user.orgId))
      const text = AUTH_TEXTS.joinPending.replace('{organization}', org?.name ?? 'the organisation')
      throw apiError(403, text, { msg: text, code: AUTH_ERROR_CODES.pendingApproval })
    }
    if (!user?.passwordHash || !matches || user.status !== 'active' || tempExpired) {
      throw wrongCredentials()
    }
    // the right password: the attempts counted so far were not an attack on this account
    await deps.limiter.clear(failKey)
    if (!user.emailConfirmedAt) {
      throw apiError(403, AUTH_TEXTS.emailNotConfirmed, {
        msg: AUTH_TEXTS.emailNotConfirmed,
        code: AUTH_ERROR_CODES.emailNotConfirmed,
      })
    }
    const pair = await db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({
          lastLoginAt: at,
          // a temporary password works for one sign-in only (AS7)
          tempPasswordExpiresAt: user.tempPasswordExpiresAt ? at : null,
        })
        .where(eq(users.id, user.id))
      return startSession(tx, user)
    })
    const body: LoginResponse = {
      access: pair.access,
      refresh: pair.refresh,
      requires_password_change: user.mustChangePassword,
    }
    return body
  }

  return { limitAddress, findUserByEmail, login }
}

export type Login = ReturnType<typeof createLogin>
