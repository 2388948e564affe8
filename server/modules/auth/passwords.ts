import { and, eq, sql } from 'drizzle-orm'
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core'
import type {
  ForcedChangeResponse,
  UserStatus,
  ValidateResetTokenResponse,
} from '../../../contract/auth.ts'
import { AUTH_TEXTS } from '../../../contract/auth-texts.ts'
import { ERROR_CODES } from '../../../contract/errors.ts'
import type { AuthContext } from '../../auth/context.ts'
import { hashPassword, passwordPolicyError, verifyPassword } from '../../auth/password.ts'
import { ssoRequiredFor } from '../../auth/sso-policy.ts'
import { hashToken } from '../../auth/tokens.ts'
import type { DbOrTx } from '../../db/index.ts'
import { linkTokens, users } from '../../db/schema.ts'
import { apiError } from '../../http/errors.ts'
import { passwordChangedMail, passwordResetMail } from '../../mail/messages.ts'
import type { AuthParts } from './parts.ts'
import {
  type AuthServiceDeps,
  badPassword,
  invalidLink,
  mailingFlow,
  normaliseEmail,
  parseUid,
  sessionExpired,
} from './shared.ts'

/**
 * Passwords: forgotten (a reset link), set from an invitation, and the forced change at the next sign-in; each ends the user's other sessions.
 */
export function createPasswords(deps: AuthServiceDeps, parts: AuthParts) {
  const { db, afterCommit, target } = mailingFlow(deps)

  const { limitAddress, findUserByEmail } = parts.login
  const { issueLink, revokeLinks, consumeLink, recordWrongToken, linkUsable } = parts.links
  const { startSession, revokeSessions } = parts.sessions

  /**
   * POST request_password_reset/: the same answer for every address (LT6); only an active account
   * gets a mail, its older reset links die (LT4), and mail to one account is capped per hour.
   */
  async function requestPasswordReset(emailInput: string, address: string) {
    await limitAddress(address)
    const email = normaliseEmail(emailInput)
    // the lookup, the link and the mail happen after the answer, so that a known address and an
    // unknown one answer in the same time (AS1, LT6)
    deps.mailer.later(async () => {
      const user = await findUserByEmail(db, email)
      if (user?.status !== 'active') return []
      // AS12: no reset for people who must sign in with single sign-on (same answer)
      if (await ssoRequiredFor(deps.database.pool, email)) return []
      const sent = await deps.limiter.hit(`reset-mail:${user.id}`, deps.limits.resetMails)
      if (sent.limited) return []
      const token = await db.transaction((tx) => issueLink(tx, user, 'password_reset'))
      return [
        passwordResetMail(target, {
          to: user.email,
          firstName: user.firstName,
          userId: user.id,
          token,
        }),
      ]
    })
    return { status: 'success' as const, detail: AUTH_TEXTS.resetSent }
  }

  /**
   * POST validate_password_reset_token/: never consumes (LT9). A real link past its hour says so,
   * with its address, so the page can offer a new link; anything else is simply invalid.
   */
  async function validateResetToken(
    uidInput: string,
    token: string,
  ): Promise<ValidateResetTokenResponse> {
    const invalid = { token_valid: false, user_email: null, expired: false }
    const uid = parseUid(uidInput)
    if (uid === null) return invalid
    const [row] = await db
      .select({ link: linkTokens, user: users })
      .from(linkTokens)
      .innerJoin(users, eq(users.id, linkTokens.userId))
      .where(
        and(eq(linkTokens.tokenHash, hashToken(token)), eq(linkTokens.purpose, 'password_reset')),
      )
    if (!row || row.link.userId !== uid) {
      await recordWrongToken(uid, 'password_reset', token)
      return invalid
    }
    const { link, user } = row
    if (
      link.usedAt ||
      link.revokedAt ||
      link.attempts >= deps.limits.linkAttempts ||
      link.orgId !== user.orgId ||
      user.status !== 'active'
    ) {
      return invalid
    }
    if (link.expiresAt <= deps.now()) {
      return { token_valid: false, user_email: user.email, expired: true }
    }
    return { token_valid: true, user_email: user.email, expired: false }
  }

  /**
   * A new password sent with a one-time link: the policy first, then the link (a wrong token is
   * counted); the password is hashed before any transaction opens.
   */
  async function checkLink(
    purpose: 'password_reset' | 'invite',
    input: { uid: string; token: string; new_password: string },
    invalid: string,
  ) {
    const policy = passwordPolicyError(input.new_password)
    if (policy) throw badPassword(policy)
    const uid = parseUid(input.uid)
    if (uid === null) throw invalidLink(invalid)
    if (!(await linkUsable(purpose, input.token, uid))) {
      await recordWrongToken(uid, purpose, input.token)
      throw invalidLink(invalid)
    }
    return { uid, passwordHash: await hashPassword(input.new_password) }
  }

  /**
   * Redeems a one-time link that sets a password: the link is checked (`checkLink`), then one
   * transaction consumes it (single use even under a race, LT1) and updates the user it was issued
   * to, in their organisation and only while in the state `from`; `andThen` runs in that transaction.
   * A link raced away, or a user no longer in that state, is an invalid link.
   */
  async function redeemLink(
    purpose: 'password_reset' | 'invite',
    input: { uid: string; token: string; new_password: string },
    invalid: string,
    change: {
      from: UserStatus
      set: (at: Date) => PgUpdateSetSource<typeof users>
      andThen?: (tx: DbOrTx, uid: number) => Promise<void>
    },
  ) {
    const { uid, passwordHash } = await checkLink(purpose, input, invalid)
    const user = await db.transaction(async (tx) => {
      const link = await consumeLink(tx, purpose, input.token, uid)
      if (!link) return null
      const at = deps.now()
      const [updated] = await tx
        .update(users)
        .set({ passwordHash, mustChangePassword: false, updatedAt: at, ...change.set(at) })
        .where(and(eq(users.id, uid), eq(users.orgId, link.orgId), eq(users.status, change.from)))
        .returning()
      if (updated && change.andThen) await change.andThen(tx, uid)
      return updated ?? null
    })
    if (!user) throw invalidLink(invalid)
    return user
  }

  /**
   * POST confirm_password_reset/: the new password ends every session of the user (AS6) and every
   * other reset or magic link (LT4), and a notice is mailed.
   */
  async function confirmPasswordReset(input: { uid: string; token: string; new_password: string }) {
    const user = await redeemLink('password_reset', input, AUTH_TEXTS.invalidOrExpiredResetLink, {
      from: 'active',
      set: (at) => ({
        tempPasswordExpiresAt: null,
        // following the mailed link proved the address
        emailConfirmedAt: sql`coalesce(${users.emailConfirmedAt}, ${at})`,
      }),
      andThen: async (tx, uid) => {
        await revokeSessions(tx, uid, 'password_reset')
        await revokeLinks(tx, uid, ['password_reset', 'magic_link'])
      },
    })
    afterCommit([passwordChangedMail(target, { to: user.email, firstName: user.firstName })])
    return { status: 'success' as const }
  }

  /**
   * POST set-password/: an invite link sets the invited user's first password, once, only for the
   * uid and organisation it was issued to, and not after it was revoked (LT10).
   */
  async function setPassword(input: { uid: string; token: string; new_password: string }) {
    const user = await redeemLink('invite', input, AUTH_TEXTS.invalidOrExpiredToken, {
      from: 'invited',
      set: (at) => ({ status: 'active', emailConfirmedAt: at }),
    })
    // the invitation is accepted: the person is signed in at once (issue 39), as confirm_email
    // does; not where the organisation requires single sign-on (AS12), where the password is no
    // way in and the person signs in with the provider
    if (await ssoRequiredFor(deps.database.pool, user.email)) return { status: 'success' as const }
    const pair = await startSession(db, user)
    return { status: 'success' as const, access: pair.access, refresh: pair.refresh }
  }

  /**
   * POST change-password-forced/: only while the account is flagged. No current password is asked
   * for, because the caller proved it at the sign-in that raised the flag moments ago; an
   * unflagged account gets 403, so this call never bypasses the current-password rule (AS8).
   * Every session ends and a fresh one is returned.
   */
  async function changePasswordForced(
    auth: AuthContext,
    newPassword: string,
  ): Promise<ForcedChangeResponse> {
    const [current] = await db.select().from(users).where(eq(users.id, auth.user.id))
    if (!current) throw sessionExpired()
    if (!current.mustChangePassword) {
      throw apiError(403, AUTH_TEXTS.passwordChangeNotRequired, {
        msg: AUTH_TEXTS.passwordChangeNotRequired,
        code: ERROR_CODES.forbidden,
      })
    }
    const policy = passwordPolicyError(newPassword)
    if (policy) throw badPassword(policy)
    if (current.passwordHash && (await verifyPassword(current.passwordHash, newPassword))) {
      throw badPassword(AUTH_TEXTS.passwordUnchanged)
    }
    const passwordHash = await hashPassword(newPassword)
    const pair = await db.transaction(async (tx) => {
      const at = deps.now()
      const [updated] = await tx
        .update(users)
        .set({
          passwordHash,
          mustChangePassword: false,
          tempPasswordExpiresAt: null,
          updatedAt: at,
        })
        .where(and(eq(users.id, current.id), eq(users.mustChangePassword, true)))
        .returning()
      if (!updated) return null
      await revokeSessions(tx, current.id, 'password_change')
      await revokeLinks(tx, current.id, ['password_reset', 'magic_link'])
      return startSession(tx, updated)
    })
    if (!pair) {
      throw apiError(403, AUTH_TEXTS.passwordChangeNotRequired, { code: ERROR_CODES.forbidden })
    }
    afterCommit([passwordChangedMail(target, { to: current.email, firstName: current.firstName })])
    return { status: 'success', access: pair.access, refresh: pair.refresh }
  }

  return {
    requestPasswordReset,
    validateResetToken,
    confirmPasswordReset,
    setPassword,
    changePasswordForced,
  }
}

export type Passwords = ReturnType<typeof createPasswords>
