import { randomInt } from 'node:crypto'
import { and, eq, ne, sql } from 'drizzle-orm'
import { AUTH_ERROR_CODES } from '../../../contract/auth.ts'
import { ERROR_CODES } from '../../../contract/errors.ts'
import type { Role } from '../../../contract/roles.ts'
import { SSO_TEXTS } from '../../../contract/sso.ts'
import {
  type AdminUser,
  type AdminUserList,
  type TemporaryPassword,
  USER_TEXTS,
  type UserListQuery,
  type UserUpdate,
  userListQuerySchema,
} from '../../../contract/users.ts'
import type { AuthContext } from '../../auth/context.ts'
import { hashPassword } from '../../auth/password.ts'
import { ssoRequiredFor } from '../../auth/sso-policy.ts'
import { auditBy, writeAudit } from '../../db/audit.ts'
import type { Tx } from '../../db/index.ts'
import { listPage } from '../../db/paging.ts'
import { users } from '../../db/schema.ts'
import { apiError, notFound } from '../../http/errors.ts'
import { magicLinkMail } from '../../mail/messages.ts'
import type { AuthParts } from './parts.ts'
import { type AuthServiceDeps, mailingFlow, parseUid, type UserRow } from './shared.ts'

/** How long an administrator's temporary password works, at most (AS7): one sign-in, within 24 h. */
export const TEMPORARY_PASSWORD_TTL_MS = 24 * 60 * 60 * 1000

/**
 * The people of an organisation, as its admins manage them: list, rename, change roles, remove,
 * send a one-time sign-in link, set a temporary password. Every call is the caller's organisation
 * only (another's user is a 404); every change is audited with its before and after (TI7); the
 * organisation always keeps an admin (TI5: 409).
 */
export function createPeople(deps: AuthServiceDeps, parts: AuthParts) {
  const { db, afterCommit, target } = mailingFlow(deps)
  const { pool } = deps.database
  const { revokeSessions } = parts.sessions
  const { issueLink, revokeLinks } = parts.links

  const toAdminUser = (row: UserRow): AdminUser => ({
    id: row.id,
    email: row.email,
    first_name: row.firstName,
    last_name: row.lastName,
    role: row.role,
    status: row.status,
    last_login_at: row.lastLoginAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  })

  async function list(auth: AuthContext, input: UserListQuery): Promise<AdminUserList> {
    const query = userListQuerySchema.parse(input)
    const values: unknown[] = [auth.org.id]
    const where = ['u.org_id = $1']
    if (query.status) {
      values.push(query.status)
      where.push(`u.status = $${values.length}`)
    } else where.push(`u.status <> 'removed'`)
    if (query.role) {
      values.push(query.role)
      where.push(`u.role = $${values.length}`)
    }
    if (query.q) {
      values.push(`%${query.q.replace(/[\\%_]/g, '\\$&')}%`)
      where.push(
        `(u.email ilike $${values.length} or (u.first_name || ' ' || u.last_name) ilike $${values.length})`,
      )
    }
    return listPage<
      {
        id: string
        email: string
        first_name: string
        last_name: string
        role: Role
        status: AdminUser['status']
        last_login_at: Date | null
        created_at: Date
      },
      AdminUser
    >(
      pool,
      {
        select: `select u.id, u.email, u.first_name, u.last_name, u.role, u.status,
                        u.last_login_at, u.created_at from users u`,
        counted: 'users u',
        where: where.join(' and '),
        order: 'lower(u.first_name || u.last_name || u.email), u.id',
      },
      values,
      query,
      (row) => ({
        id: Number(row.id),
        email: row.email,
        first_name: row.first_name,
        last_name: row.last_name,
        role: row.role,
        status: row.status,
        last_login_at: row.last_login_at?.toISOString() ?? null,
        created_at: row.created_at.toISOString(),
      }),
    )
  }

  /**
   * The user of the caller's organisation, locked for the change; another's is a 404. The
   * organisation is locked first: changes to its people run one at a time, so that two admins
   * demoting each other lock in one order and cannot deadlock.
   */
  async function lockUser(tx: Tx, auth: AuthContext, id: number) {
    await tx.execute(sql`select id from organizations where id = ${auth.org.id} for update`)
    const [row] = await tx
      .select()
      .from(users)
      .where(and(eq(users.id, id), eq(users.orgId, auth.org.id), ne(users.status, 'removed')))
      .for('update')
    if (!row) throw notFound(USER_TEXTS.notFound)
    return row
  }

  /**
   * 409 when `row` is the organisation's last active admin and the change would leave none (the
   * organisation is locked by `lockUser`, so two demotions at once are decided one after the other).
   */
  async function keepAnAdmin(tx: Tx, row: UserRow) {
    if (row.role !== 'admin' || row.status !== 'active') return
    const { rows } = await tx.execute<{ id: string }>(
      sql`select id from users where org_id = ${row.orgId} and role = 'admin' and status = 'active'`,
    )
    if (rows.filter((admin) => Number(admin.id) !== row.id).length === 0)
      throw apiError(409, USER_TEXTS.lastAdmin, {
        msg: USER_TEXTS.lastAdmin,
        code: ERROR_CODES.conflict,
      })
  }

  const audit = (
    tx: Tx,
    auth: AuthContext,
    requestId: string,
    action: string,
    row: UserRow,
    detail: Record<string, unknown>,
  ) =>
    // the person by their address: the log reads by it after they are gone
    writeAudit(tx, auditBy(auth, requestId), {
      action,
      target: `user:${row.id}`,
      name: row.email,
      detail,
      createdAt: deps.now(),
    })

  async function update(auth: AuthContext, id: number, input: UserUpdate, requestId: string) {
    return db.transaction(async (tx) => {
      const row = await lockUser(tx, auth, id)
      const next = {
        firstName: input.first_name ?? row.firstName,
        lastName: input.last_name ?? row.lastName,
      }
      if (next.firstName === row.firstName && next.lastName === row.lastName)
        return toAdminUser(row)
      const [updated] = await tx
        .update(users)
        .set({ ...next, updatedAt: deps.now() })
        .where(eq(users.id, row.id))
        .returning()
      await audit(tx, auth, requestId, 'user.updated', row, {
        before: { first_name: row.firstName, last_name: row.lastName },
        after: { first_name: next.firstName, last_name: next.lastName },
      })
      return toAdminUser(updated as UserRow)
    })
  }

  async function changeRole(auth: AuthContext, id: number, role: Role, requestId: string) {
    return db.transaction(async (tx) => {
      const row = await lockUser(tx, auth, id)
      if (row.role === role) return toAdminUser(row)
      if (role !== 'admin') await keepAnAdmin(tx, row)
      const [updated] = await tx
        .update(users)
        .set({ role, updatedAt: deps.now() })
        .where(eq(users.id, row.id))
        .returning()
      await audit(tx, auth, requestId, 'user.role_changed', row, {
        before: { role: row.role },
        after: { role },
      })
      return toAdminUser(updated as UserRow)
    })
  }

  /**
   * Removes a person: the row stays for the audit trail, their sessions end at once (their open
   * pages get 401 on the next call) and their one-time links die. An invited person's seat is freed.
   */
  async function remove(auth: AuthContext, id: number, requestId: string) {
    return db.transaction(async (tx) => {
      const row = await lockUser(tx, auth, id)
      await keepAnAdmin(tx, row)
      await tx
        .update(users)
        .set({ status: 'removed', updatedAt: deps.now() })
        .where(eq(users.id, row.id))
      await revokeSessions(tx, row.id, 'removed')
      await revokeLinks(tx, row.id, ['invite', 'password_reset', 'magic_link', 'confirm_email'])
      await audit(tx, auth, requestId, 'user.removed', row, {
        before: { status: row.status, role: row.role },
        after: { status: 'removed' },
      })
      return { status: 'success' as const }
    })
  }

  /** A one-time sign-in link, mailed to the person (10 minutes, redeemed only by a POST: LT9). */
  async function sendMagicLink(auth: AuthContext, id: number, requestId: string) {
    const mail = await db.transaction(async (tx) => {
      const row = await lockUser(tx, auth, id)
      // AS12: people who must sign in with single sign-on get no sign-in links
      if (await ssoRequiredFor(deps.database.pool, row.email))
        throw apiError(409, SSO_TEXTS.ssoRequired, {
          msg: SSO_TEXTS.ssoRequired,
          code: ERROR_CODES.conflict,
        })
      if (row.status !== 'active')
        throw apiError(409, USER_TEXTS.notActive, {
          msg: USER_TEXTS.notActive,
          code: ERROR_CODES.conflict,
        })
      // a new link replaces any earlier one
      await revokeLinks(tx, row.id, ['magic_link'])
      const token = await issueLink(tx, row, 'magic_link')
      await audit(tx, auth, requestId, 'user.magic_link_sent', row, {})
      return magicLinkMail(target, {
        to: row.email,
        firstName: row.firstName,
        userId: row.id,
        token,
      })
    })
    afterCommit([mail])
    return { status: 'success' as const, detail: USER_TEXTS.magicLinkSent }
  }

  /**
   * A temporary password, shown once to the admin and stored only hashed: it works for one sign-in
   * within 24 hours, which must then set a new password (AS7). The person's sessions end.
   */
  async function temporaryPassword(
    auth: AuthContext,
    id: number,
    requestId: string,
  ): Promise<TemporaryPassword> {
    const password = temporaryPasswordText()
    const hash = await hashPassword(password)
    const expiresAt = new Date(deps.now().getTime() + TEMPORARY_PASSWORD_TTL_MS)
    await db.transaction(async (tx) => {
      const row = await lockUser(tx, auth, id)
      if (row.status !== 'active')
        throw apiError(409, USER_TEXTS.notActive, {
          msg: USER_TEXTS.notActive,
          code: ERROR_CODES.conflict,
        })
      await tx
        .update(users)
        .set({
          passwordHash: hash,
          mustChangePassword: true,
          tempPasswordExpiresAt: expiresAt,
          updatedAt: deps.now(),
        })
        .where(eq(users.id, row.id))
      await revokeSessions(tx, row.id, 'temporary_password')
      await revokeLinks(tx, row.id, ['password_reset', 'magic_link'])
      // never the password itself
      await audit(tx, auth, requestId, 'user.temporary_password', row, {
        expires_at: expiresAt.toISOString(),
      })
    })
    return { temporary_password: password, expires_at: expiresAt.toISOString() }
  }

  /**
   * POST admin/magic-link/ (public): redeems a sign-in link once, by POST only (LT9), for the user
   * and organisation it was issued to, while that account is active; wrong tokens count (LT5).
   */
  async function redeemMagicLink(input: { uid: string; token: string }, address: string) {
    await parts.login.limitAddress(address)
    const invalid = () =>
      apiError(400, USER_TEXTS.invalidMagicLink, {
        msg: USER_TEXTS.invalidMagicLink,
        code: AUTH_ERROR_CODES.invalidToken,
      })
    const uid = parseUid(input.uid)
    if (uid === null) throw invalid()
    const { rows: owner } = await deps.database.pool.query<{ email: string }>(
      'select email from users where id = $1',
      [uid],
    )
    // AS12: a link issued before the organisation required single sign-on no longer signs in
    if (owner[0] && (await ssoRequiredFor(deps.database.pool, owner[0].email))) throw invalid()
    if (!(await parts.links.linkUsable('magic_link', input.token, uid))) {
      await parts.links.recordWrongToken(uid, 'magic_link', input.token)
      throw invalid()
    }
    const pair = await db.transaction(async (tx) => {
      const link = await parts.links.consumeLink(tx, 'magic_link', input.token, uid)
      if (!link) return null
      const [user] = await tx
        .update(users)
        .set({ lastLoginAt: deps.now() })
        .where(and(eq(users.id, uid), eq(users.orgId, link.orgId), eq(users.status, 'active')))
        .returning()
      if (!user) return null
      const session = await parts.sessions.startSession(tx, user)
      return { ...session, requiresPasswordChange: user.mustChangePassword }
    })
    if (!pair) throw invalid()
    return {
      access: pair.access,
      refresh: pair.refresh,
      requires_password_change: pair.requiresPasswordChange,
    }
  }

  return {
    helpers: { lockUser, audit, toAdminUser },
    list,
    update,
    changeRole,
    remove,
    sendMagicLink,
    temporaryPassword,
    redeemMagicLink,
  }
}

/** 16 characters from an alphabet without look-alikes, with letters and digits both (policy). */
function temporaryPasswordText() {
  const letters = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ'
  const digits = '23456789'
  const all = letters + digits
  const chars = Array.from({ length: 16 }, () => all[randomInt(all.length)] as string)
  chars[randomInt(8)] = letters[randomInt(letters.length)] as string
  chars[8 + randomInt(8)] = digits[randomInt(digits.length)] as string
  return chars.join('')
}

export type People = ReturnType<typeof createPeople>
