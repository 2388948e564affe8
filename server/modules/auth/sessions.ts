import { and, eq, isNull, ne, sql } from 'drizzle-orm'
import { REFRESH_TOKEN_TTL_S, type TokenPair } from '../../../contract/auth.ts'
import { AUTH_TEXTS } from '../../../contract/auth-texts.ts'
import { ERROR_CODES } from '../../../contract/errors.ts'
import type { AuthContext } from '../../auth/context.ts'
import { type AccessClaims, hashToken, randomToken } from '../../auth/tokens.ts'
import { type DbOrTx, prepared } from '../../db/index.ts'
import { refreshTokens, sessions, users } from '../../db/schema.ts'
import { apiError } from '../../http/errors.ts'
import {
  type AuthServiceDeps,
  endedAncestor,
  MAX_LIVE_SESSIONS,
  sessionExpired,
  toAccessUser,
  type UserRow,
  UUID,
} from './shared.ts'

/**
 * Tokens and sessions: a session is a refresh family; refresh rotates (a replay ends the family and what it issued), token/get issues a child session, logout ends a session's tree, and every call is authenticated against the stored session.
 */
export function createSessions(deps: AuthServiceDeps) {
  const { db } = deps.database
  const log = deps.logger.child({ component: 'auth' })

  /** A new refresh family with its first token, and an access token bound to it. */
  async function startSession(
    tx: DbOrTx,
    user: UserRow,
    options: { parentId?: string; expiresAt?: Date } = {},
  ): Promise<TokenPair & { sessionId: string }> {
    const at = deps.now()
    const expiresAt = options.expiresAt ?? new Date(at.getTime() + REFRESH_TOKEN_TTL_S * 1000)
    const [session] = await tx
      .insert(sessions)
      .values({
        userId: user.id,
        orgId: user.orgId,
        parentId: options.parentId,
        createdAt: at,
        expiresAt,
      })
      .returning({ id: sessions.id })
    if (!session) throw new Error('session insert returned no row')
    // at most MAX_LIVE_SESSIONS live sessions per user: the oldest beyond it end
    await tx.execute(sql`
      update ${sessions} set revoked_at = ${at}, revoked_reason = 'session_limit'
       where id in (
         select id from ${sessions}
          where user_id = ${user.id} and revoked_at is null and expires_at > ${at}
          order by created_at desc, id desc offset ${MAX_LIVE_SESSIONS})`)
    const refresh = randomToken()
    await tx.insert(refreshTokens).values({
      familyId: session.id,
      userId: user.id,
      tokenHash: hashToken(refresh),
      createdAt: at,
      expiresAt,
    })
    const access = await deps.tokens.signAccess({
      user: toAccessUser(user),
      orgId: user.orgId,
      sessionId: session.id,
    })
    return { access, refresh, sessionId: session.id }
  }

  /** Ends sessions of a user: their refresh tokens and access tokens stop working at once (AS6). */
  async function revokeSessions(tx: DbOrTx, userId: number, reason: string, exceptId?: string) {
    await tx
      .update(sessions)
      .set({ revokedAt: deps.now(), revokedReason: reason })
      .where(
        and(
          eq(sessions.userId, userId),
          isNull(sessions.revokedAt),
          exceptId ? ne(sessions.id, exceptId) : undefined,
        ),
      )
  }

  /**
   * Ends sessions and every session issued from them (token/get: the extension hand-off), to any
   * depth, in one statement.
   */
  async function revokeTrees(tx: DbOrTx, ids: string[], reason: string) {
    if (ids.length === 0) return
    await tx.execute(sql`
      with recursive tree(id) as (
        select id from ${sessions} where id = any(${`{${ids.join(',')}}`}::uuid[])
        union
        select s.id from ${sessions} s join tree t on s.parent_id = t.id
      )
      update ${sessions} set revoked_at = ${deps.now()}, revoked_reason = ${reason}
       where id in (select id from tree) and revoked_at is null`)
  }

  // ---- one-time links ------------------------------------------------------------------------

  /**
   * POST token/refresh/: rotates the refresh token. A token that was already rotated is a replay:
   * the whole family is revoked, its live successor included (AS5, RFC 9700 4.14.2).
   */
  async function refresh(token: string): Promise<TokenPair> {
    const at = deps.now()
    const next = randomToken()
    // The hot path is one statement: claim the token (still unused, its session live, its user
    // active), insert its successor and link the two. Of two concurrent uses only one finds
    // `used_at` still null once the row lock is released.
    const claimed = await deps.database.pool.query<{
      family_id: string
      user_id: number
      org_id: number
      email: string
      first_name: string
      last_name: string
      role: UserRow['role']
    }>(
      `with next_id as (
         select nextval(pg_get_serial_sequence('refresh_tokens', 'id')) as id
       ), claimed as (
         update refresh_tokens rt
            set used_at = $3, replaced_by = (select id from next_id)
           from sessions s, users u
          where rt.token_hash = $1 and rt.used_at is null and rt.revoked_at is null
            and s.id = rt.family_id and s.revoked_at is null and s.expires_at > $3
            and u.id = s.user_id and u.status = 'active'
            and not ${endedAncestor('s')}
         returning rt.family_id, rt.user_id, s.expires_at, u.org_id, u.email, u.first_name,
                   u.last_name, u.role
       ), successor as (
         insert into refresh_tokens (id, family_id, user_id, token_hash, created_at, expires_at)
         overriding system value
         select (select id from next_id), family_id, user_id, $2, $3, expires_at from claimed
       )
       select family_id, user_id, org_id, email, first_name, last_name, role from claimed`,
      [hashToken(token), hashToken(next), at],
    )
    const row = claimed.rows[0]
    if (row) {
      const access = await deps.tokens.signAccess({
        user: {
          id: row.user_id,
          email: row.email,
          first_name: row.first_name,
          last_name: row.last_name,
          role: row.role,
        },
        orgId: row.org_id,
        sessionId: row.family_id,
      })
      return { access, refresh: next }
    }

    // Not claimable. A token that was already rotated (or revoked) while its session lives is a
    // replay: the whole family goes, its live successor included (AS5, RFC 9700 4.14.2).
    const [known] = await db
      .select({ token: refreshTokens, session: sessions, userStatus: users.status })
      .from(refreshTokens)
      .innerJoin(sessions, eq(sessions.id, refreshTokens.familyId))
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(refreshTokens.tokenHash, hashToken(token)))
    if (known && !known.session.revokedAt) {
      if (known.token.usedAt || known.token.revokedAt) {
        // what the family issued (token/get) is presumed stolen with it
        await revokeTrees(db, [known.session.id], 'refresh_reuse')
        log.warn(
          { sessionId: known.session.id, userId: known.session.userId },
          'rotated refresh token reused: session revoked',
        )
      } else if (known.userStatus !== 'active') {
        await revokeSessions(db, known.session.userId, 'inactive')
      }
    }
    throw sessionExpired()
  }

  /**
   * POST token/get/: a fresh pair in a session of its own (the extension hand-off), so that its
   * rotations never collide with the caller's. It ends no later than the caller's session.
   */
  async function tokenGet(auth: AuthContext): Promise<TokenPair> {
    const [user] = await db.select().from(users).where(eq(users.id, auth.user.id))
    if (!user) throw sessionExpired()
    const pair = await db.transaction((tx) =>
      startSession(tx, user, { parentId: auth.sid, expiresAt: auth.sessionExpiresAt }),
    )
    return { access: pair.access, refresh: pair.refresh }
  }

  /**
   * POST /logout/: ends the session named by the access token and, when sent, the one the refresh
   * token belongs to. Their access tokens fail from the next call on (AS6).
   */
  async function logout(claims: AccessClaims | null, refreshToken: string | undefined) {
    if (!claims && !refreshToken) {
      throw apiError(401, AUTH_TEXTS.authenticationRequired, { code: ERROR_CODES.unauthorized })
    }
    const ids: string[] = []
    if (claims && UUID.test(claims.sid)) ids.push(claims.sid)
    if (refreshToken) {
      const [row] = await db
        .select({ familyId: refreshTokens.familyId })
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, hashToken(refreshToken)))
      if (row) ids.push(row.familyId)
    }
    // the session and every session issued from it, to any depth, end together; logging out of
    // a child (the extension) ends it and its own children, never the session that issued it
    await revokeTrees(db, ids, 'logout')
    return { status: 'success' as const }
  }

  /**
   * The user behind an access token, read fresh from the database: a revoked or expired session,
   * or a user no longer active, fails at once (AS6); the role is the stored one, never the token's.
   */
  async function authenticate(token: string): Promise<AuthContext | null> {
    const claims = await deps.tokens.verifyAccess(token)
    if (!claims || !UUID.test(claims.sid)) return null
    // one statement on every authenticated call: only the columns it needs, and whether a
    // session above this one (token/get) has ended
    const { rows } = await deps.database.pool.query<{
      expires_at: Date
      ended: boolean
      id: number
      email: string
      first_name: string
      last_name: string
      role: UserRow['role']
      must_change_password: boolean
      org_id: number
    }>(
      prepared(
        `select s.expires_at,
              s.revoked_at is not null or u.status <> 'active'
                or (s.parent_id is not null and ${endedAncestor('s')}) as ended,
              u.id, u.email, u.first_name, u.last_name, u.role, u.must_change_password, u.org_id
         from sessions s join users u on u.id = s.user_id
        where s.id = $1`,
        [claims.sid],
      ),
    )
    const row = rows[0]
    if (
      !row ||
      row.ended ||
      row.expires_at <= deps.now() ||
      String(row.id) !== claims.sub ||
      row.org_id !== claims.org
    ) {
      return null
    }
    return {
      user: {
        id: row.id,
        email: row.email,
        firstName: row.first_name,
        lastName: row.last_name,
        role: row.role,
        mustChangePassword: row.must_change_password,
      },
      org: { id: row.org_id },
      role: row.role,
      sid: claims.sid,
      sessionExpiresAt: row.expires_at,
    }
  }

  return { startSession, revokeSessions, refresh, tokenGet, logout, authenticate }
}

export type Sessions = ReturnType<typeof createSessions>
