import { and, eq, ne, sql } from 'drizzle-orm'
import { AUTH_ERROR_CODES } from '../../../contract/auth.ts'
import { userLimitText } from '../../../contract/auth-texts.ts'
import { ERROR_CODES } from '../../../contract/errors.ts'
import { USER_TEXTS } from '../../../contract/users.ts'
import type { AuthContext } from '../../auth/context.ts'
import { licenses, organizations, users } from '../../db/schema.ts'
import { apiError } from '../../http/errors.ts'
import { joinApprovedMail } from '../../mail/messages.ts'
import { effectiveLimit } from '../account/license.ts'
import type { AuthParts } from './parts.ts'
import type { People } from './people.ts'
import { type AuthServiceDeps, mailingFlow, type UserRow } from './shared.ts'

/**
 * Requests to join: someone who registered with an address at a domain the organisation verified,
 * and confirmed it, waits ('pending') until an admin approves or rejects the request.
 */
export function createJoins(deps: AuthServiceDeps, parts: AuthParts, people: People) {
  const { db, afterCommit, target } = mailingFlow(deps)
  const { lockUser, audit, toAdminUser } = people.helpers
  const { revokeSessions } = parts.sessions
  const { revokeLinks } = parts.links

  /**
   * Approves a request to join (someone who registered with an address at a verified domain and
   * confirmed it; an unconfirmed address is refused, 409): they become an active contributor, if a
   * seat is free (the license is locked, as for invites), and are told by mail.
   */
  async function approve(auth: AuthContext, id: number, requestId: string) {
    const result = await db.transaction(async (tx) => {
      const row = await lockUser(tx, auth, id)
      if (row.status !== 'pending')
        throw apiError(409, USER_TEXTS.notPending, {
          msg: USER_TEXTS.notPending,
          code: ERROR_CODES.conflict,
        })
      // the address must be proved theirs before anyone lets them in
      if (!row.emailConfirmedAt)
        throw apiError(409, USER_TEXTS.emailNotConfirmed, {
          msg: USER_TEXTS.emailNotConfirmed,
          code: ERROR_CODES.conflict,
        })
      const [license] = await tx
        .select()
        .from(licenses)
        .where(eq(licenses.orgId, auth.org.id))
        .for('update')
      const maxUsers = effectiveLimit(license, 'max_users', deps.now())
      const [seats] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(users)
        .where(
          and(
            eq(users.orgId, auth.org.id),
            ne(users.status, 'removed'),
            ne(users.status, 'pending'),
          ),
        )
      if (maxUsers !== null && (seats?.count ?? 0) >= maxUsers)
        throw apiError(409, userLimitText(maxUsers), {
          msg: userLimitText(maxUsers),
          code: AUTH_ERROR_CODES.licenseLimit,
          detail: { limit: 'max_users', max: maxUsers },
        })
      const [updated] = await tx
        .update(users)
        .set({ status: 'active', updatedAt: deps.now() })
        .where(eq(users.id, row.id))
        .returning()
      await audit(tx, auth, requestId, 'user.join_approved', row, {
        before: { status: 'pending' },
        after: { status: 'active', role: row.role },
      })
      const [org] = await tx
        .select({ name: organizations.name })
        .from(organizations)
        .where(eq(organizations.id, auth.org.id))
      return { user: updated as UserRow, organization: org?.name ?? 'your organisation' }
    })
    afterCommit([
      joinApprovedMail(target, {
        to: result.user.email,
        firstName: result.user.firstName,
        organization: result.organization,
      }),
    ])
    return toAdminUser(result.user)
  }

  /** Turns a request to join down: the person stays out (their row is kept for the log). */
  async function reject(auth: AuthContext, id: number, requestId: string) {
    return db.transaction(async (tx) => {
      const row = await lockUser(tx, auth, id)
      if (row.status !== 'pending')
        throw apiError(409, USER_TEXTS.notPending, {
          msg: USER_TEXTS.notPending,
          code: ERROR_CODES.conflict,
        })
      await tx
        .update(users)
        .set({ status: 'removed', updatedAt: deps.now() })
        .where(eq(users.id, row.id))
      await revokeSessions(tx, row.id, 'rejected')
      await revokeLinks(tx, row.id, ['confirm_email', 'password_reset', 'magic_link'])
      await audit(tx, auth, requestId, 'user.join_rejected', row, {
        before: { status: 'pending' },
        after: { status: 'removed' },
      })
      return { status: 'success' as const }
    })
  }

  return { approve, reject }
}
