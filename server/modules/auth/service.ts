import { and, eq, gt, inArray, isNull, lt, ne, sql } from 'drizzle-orm'
import {
  AUTH_ERROR_CODES,
  CONFIRM_LINK_TTL_S,
  type ConfirmEmailResponse,
  type ForcedChangeResponse,
  INVITE_LINK_TTL_S,
  type InviteUserRequest,
  type InviteUserResponse,
  type LoginResponse,
  MAGIC_LINK_TTL_S,
  REFRESH_TOKEN_TTL_S,
  RESET_LINK_TTL_S,
  type TokenPair,
  type ValidateResetTokenResponse,
} from '../../../contract/auth.ts'
import { AUTH_TEXTS, registrationEmailError, userLimitText } from '../../../contract/auth-texts.ts'
import { ERROR_CODES } from '../../../contract/errors.ts'
import type { AuthContext } from '../../auth/context.ts'
import {
  dummyPasswordHash,
  hashPassword,
  passwordPolicyError,
  verifyPassword,
} from '../../auth/password.ts'
import type { RateLimiter, RateRule } from '../../auth/rate-limit.ts'
import {
  type AccessClaims,
  type AccessUser,
  type Clock,
  hashToken,
  randomToken,
  type TokenService,
} from '../../auth/tokens.ts'
import type { Database, DbOrTx, Tx } from '../../db/index.ts'
import {
  auditEvents,
  type LinkPurpose,
  licenses,
  linkTokens,
  organizations,
  refreshTokens,
  sessions,
  users,
} from '../../db/schema.ts'
import { ApiException, apiError } from '../../http/errors.ts'
import type { Logger } from '../../logger.ts'
import type { Mailer, MailMessage } from '../../mail/index.ts'
import {
  confirmationMail,
  inviteMail,
  passwordChangedMail,
  passwordResetMail,
} from '../../mail/messages.ts'
import { FREE_TIER } from '../account/license.ts'

/**
 * Accounts and sessions: sign-in, registration, email confirmation, refresh-token rotation,
 * password reset, invites and the forced password change. Every multi-step write is one
 * transaction (DU3); mail leaves only after its transaction commits, in the background (LT6).
 */

export interface AuthLimits {
  /** Failed logins per account (AS2): the 6th in 15 minutes is refused. */
  loginFailures: RateRule
  /** Login, registration and reset requests per client address. */
  perAddress: RateRule
  /** Reset mails per account; further requests answer alike and send nothing. */
  resetMails: RateRule
  /** Wrong tokens tried for a uid before even the right one fails (LT5). */
  linkAttempts: number
}

export const DEFAULT_AUTH_LIMITS: AuthLimits = {
  loginFailures: { limit: 5, windowMs: 15 * 60_000, bucketMs: 60_000 },
  perAddress: { limit: 60, windowMs: 60_000, bucketMs: 5_000 },
  resetMails: { limit: 5, windowMs: 60 * 60_000, bucketMs: 5 * 60_000 },
  linkAttempts: 5,
}

export interface AuthServiceDeps {
  database: Database
  tokens: TokenService
  limiter: RateLimiter
  mailer: Mailer
  now: Clock
  publicUrl: string
  logger: Logger
  limits: AuthLimits
}

type UserRow = typeof users.$inferSelect
type LinkRow = typeof linkTokens.$inferSelect

const LINK_TTL_S: Record<LinkPurpose, number> = {
  confirm_email: CONFIRM_LINK_TTL_S,
  password_reset: RESET_LINK_TTL_S,
  invite: INVITE_LINK_TTL_S,
  magic_link: MAGIC_LINK_TTL_S,
}

/** Live sessions one user may hold; a new sign-in past it ends the oldest. */
export const MAX_LIVE_SESSIONS = 50

const normaliseEmail = (email: string) => email.trim().toLowerCase()
const parseUid = (uid: string) => (/^\d{1,15}$/.test(uid.trim()) ? Number(uid.trim()) : null)
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export const toAccessUser = (user: UserRow): AccessUser => ({
  id: user.id,
  email: user.email,
  first_name: user.firstName,
  last_name: user.lastName,
  role: user.role,
})

const wrongCredentials = () =>
  apiError(401, AUTH_TEXTS.wrongCredentials, { code: AUTH_ERROR_CODES.invalidCredentials })
const tooManyAttempts = (retryAfterS: number) =>
  apiError(
    429,
    AUTH_TEXTS.tooManyAttempts,
    { msg: AUTH_TEXTS.tooManyAttempts, code: ERROR_CODES.rateLimited },
    { 'Retry-After': String(retryAfterS) },
  )
const sessionExpired = () =>
  apiError(401, AUTH_TEXTS.sessionExpired, { code: AUTH_ERROR_CODES.sessionExpired })
const badPassword = (text: string) =>
  apiError(400, text, { msg: text, code: AUTH_ERROR_CODES.invalidPassword })
const invalidLink = (text: string) =>
  apiError(400, text, { msg: text, code: AUTH_ERROR_CODES.invalidToken })

function isUniqueViolation(error: unknown): boolean {
  for (let current = error; current && typeof current === 'object'; ) {
    if ((current as { code?: unknown }).code === '23505') return true
    current = (current as { cause?: unknown }).cause
  }
  return false
}

export type AuthService = ReturnType<typeof createAuthService>

/**
 * SQL condition: some session above `alias` (its parent, the parent's parent, ...) has ended. A
 * session issued by token/get never outlives the session that issued it, however that one ended
 * (logout ends the tree at once; this holds for every other way a session ends).
 */
function endedAncestor(alias: string): string {
  return `exists (
    with recursive up(id, parent_id, revoked_at) as (
      select p.id, p.parent_id, p.revoked_at from sessions p where p.id = ${alias}.parent_id
      union all
      select p.id, p.parent_id, p.revoked_at from sessions p join up on p.id = up.parent_id
    )
    select 1 from up where up.revoked_at is not null)`
}

export function createAuthService(deps: AuthServiceDeps) {
  const { db } = deps.database
  const log = deps.logger.child({ component: 'auth' })
  const afterCommit = (messages: MailMessage[]) => {
    for (const message of messages) deps.mailer.send(message)
  }
  const target = { publicUrl: deps.publicUrl }

  async function limitAddress(address: string) {
    const state = await deps.limiter.hit(`addr:${address}`, deps.limits.perAddress)
    if (state.limited) throw tooManyAttempts(state.retryAfterS)
  }

  // ---- sessions ------------------------------------------------------------------------------

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

  /** Issues a link token; any older live link of the same purpose dies with it (LT4). */
  async function issueLink(tx: DbOrTx, user: UserRow, purpose: LinkPurpose): Promise<string> {
    const at = deps.now()
    await revokeLinks(tx, user.id, [purpose])
    const token = randomToken()
    await tx.insert(linkTokens).values({
      userId: user.id,
      orgId: user.orgId,
      purpose,
      tokenHash: hashToken(token),
      expiresAt: new Date(at.getTime() + LINK_TTL_S[purpose] * 1000),
      createdAt: at,
    })
    return token
  }

  async function revokeLinks(tx: DbOrTx, userId: number, purposes: LinkPurpose[]) {
    await tx
      .update(linkTokens)
      .set({ revokedAt: deps.now() })
      .where(
        and(
          eq(linkTokens.userId, userId),
          inArray(linkTokens.purpose, purposes),
          isNull(linkTokens.usedAt),
          isNull(linkTokens.revokedAt),
        ),
      )
  }

  /** Conditions under which a link may be used now; the uid must match where the link has one. */
  function usable(purpose: LinkPurpose, token: string, uid?: number) {
    return and(
      eq(linkTokens.tokenHash, hashToken(token)),
      eq(linkTokens.purpose, purpose),
      uid === undefined ? undefined : eq(linkTokens.userId, uid),
      isNull(linkTokens.usedAt),
      isNull(linkTokens.revokedAt),
      gt(linkTokens.expiresAt, deps.now()),
      lt(linkTokens.attempts, deps.limits.linkAttempts),
    )
  }

  /**
   * Consumes a link in one statement: of two concurrent uses only one finds `used_at` still null,
   * so a token works once even under a race (LT1).
   */
  async function consumeLink(
    tx: DbOrTx,
    purpose: LinkPurpose,
    token: string,
    uid?: number,
  ): Promise<LinkRow | null> {
    const [row] = await tx
      .update(linkTokens)
      .set({ usedAt: deps.now() })
      .where(usable(purpose, token, uid))
      .returning()
    return row ?? null
  }

  /**
   * A token that is no link of this uid is a guess: it counts against the uid's live links of the
   * purpose, and after the limit even the right token fails (LT5). A real but used or expired
   * link of the uid is not a guess.
   */
  async function recordWrongToken(uid: number, purpose: LinkPurpose, token: string) {
    const [own] = await db
      .select({ id: linkTokens.id })
      .from(linkTokens)
      .where(
        and(
          eq(linkTokens.tokenHash, hashToken(token)),
          eq(linkTokens.userId, uid),
          eq(linkTokens.purpose, purpose),
        ),
      )
    if (own) return
    await db
      .update(linkTokens)
      .set({ attempts: sql`${linkTokens.attempts} + 1` })
      .where(
        and(
          eq(linkTokens.userId, uid),
          eq(linkTokens.purpose, purpose),
          isNull(linkTokens.usedAt),
          isNull(linkTokens.revokedAt),
        ),
      )
  }

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

    const user = await findUserByEmail(db, email)
    const storedHash = user?.passwordHash ?? (await dummyPasswordHash())
    const matches = await verifyPassword(storedHash, input.password)
    const at = deps.now()
    const tempExpired = Boolean(user?.tempPasswordExpiresAt && user.tempPasswordExpiresAt <= at)
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

  /**
   * POST register/. Creates the organisation, its first user (admin), its Free license and a
   * confirmation link in one transaction. An address already registered answers the same body;
   * only an unconfirmed owner gets a fresh confirmation link, mailed to that same address (LT6).
   */
  async function register(
    input: {
      email: string
      password: string
      organization: string
      firstName: string
      lastName: string
      marketing_consent: boolean
    },
    address: string,
  ) {
    await limitAddress(address)
    const emailError = registrationEmailError(input.email)
    if (emailError) {
      throw apiError(400, emailError, { msg: emailError, code: ERROR_CODES.validation })
    }
    const policy = passwordPolicyError(input.password)
    if (policy) throw badPassword(policy)
    const email = normaliseEmail(input.email)
    // hashed before looking the address up, so new and known addresses take the same time
    const passwordHash = await hashPassword(input.password)
    const at = deps.now()

    const mails: MailMessage[] = []
    try {
      await db.transaction(async (tx) => {
        const existing = await findUserByEmail(tx, email)
        if (existing) {
          if (existing.status === 'active' && !existing.emailConfirmedAt) {
            const token = await issueLink(tx, existing, 'confirm_email')
            mails.push(
              confirmationMail(target, {
                to: existing.email,
                firstName: existing.firstName,
                token,
              }),
            )
          }
          return
        }
        const [org] = await tx
          .insert(organizations)
          .values({ name: input.organization.trim(), createdAt: at, updatedAt: at })
          .returning()
        if (!org) throw new Error('organization insert returned no row')
        const [user] = await tx
          .insert(users)
          .values({
            orgId: org.id,
            email,
            firstName: input.firstName.trim(),
            lastName: input.lastName.trim(),
            passwordHash,
            role: 'admin',
            status: 'active',
            marketingConsent: input.marketing_consent,
            createdAt: at,
            updatedAt: at,
          })
          .returning()
        if (!user) throw new Error('user insert returned no row')
        await tx.insert(licenses).values({ orgId: org.id, ...FREE_TIER, createdAt: at })
        const token = await issueLink(tx, user, 'confirm_email')
        mails.push(confirmationMail(target, { to: user.email, firstName: user.firstName, token }))
      })
    } catch (error) {
      // a concurrent registration of the same address won the unique index: answer alike
      if (!isUniqueViolation(error)) throw error
      mails.length = 0
    }
    afterCommit(mails)
    return { status: 'success' as const, msg: AUTH_TEXTS.registrationSent }
  }

  /** POST confirm_email/: consumes the link, confirms the address and signs the user in. */
  async function confirmEmail(token: string): Promise<ConfirmEmailResponse> {
    const result = await db.transaction(async (tx) => {
      const link = await consumeLink(tx, 'confirm_email', token)
      if (!link) return null
      const [user] = await tx
        .select()
        .from(users)
        .where(and(eq(users.id, link.userId), eq(users.orgId, link.orgId)))
        .for('update')
      if (user?.status !== 'active') return null
      const at = deps.now()
      await tx
        .update(users)
        .set({ emailConfirmedAt: user.emailConfirmedAt ?? at, lastLoginAt: at, updatedAt: at })
        .where(eq(users.id, user.id))
      await revokeLinks(tx, user.id, ['confirm_email'])
      const pair = await startSession(tx, user)
      return { pair, user }
    })
    if (!result) throw invalidLink(AUTH_TEXTS.confirmEmailFailed)
    return {
      access: result.pair.access,
      refresh: result.pair.refresh,
      user: toAccessUser(result.user),
    }
  }

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

  /** Is the link usable right now, without consuming it (so a bad one costs no argon2 hash)? */
  async function linkUsable(purpose: LinkPurpose, token: string, uid: number) {
    const [row] = await db
      .select({ id: linkTokens.id })
      .from(linkTokens)
      .where(usable(purpose, token, uid))
    return Boolean(row)
  }

  /**
   * POST confirm_password_reset/: single use even under a race (LT1); the new password ends every
   * session of the user (AS6) and every other reset or magic link (LT4), and a notice is mailed.
   */
  async function confirmPasswordReset(input: { uid: string; token: string; new_password: string }) {
    const policy = passwordPolicyError(input.new_password)
    if (policy) throw badPassword(policy)
    const uid = parseUid(input.uid)
    if (uid === null) throw invalidLink(AUTH_TEXTS.invalidOrExpiredResetLink)
    if (!(await linkUsable('password_reset', input.token, uid))) {
      await recordWrongToken(uid, 'password_reset', input.token)
      throw invalidLink(AUTH_TEXTS.invalidOrExpiredResetLink)
    }
    const passwordHash = await hashPassword(input.new_password)
    const user = await db.transaction(async (tx) => {
      const link = await consumeLink(tx, 'password_reset', input.token, uid)
      if (!link) return null
      const at = deps.now()
      const [updated] = await tx
        .update(users)
        .set({
          passwordHash,
          mustChangePassword: false,
          tempPasswordExpiresAt: null,
          // following the mailed link proved the address
          emailConfirmedAt: sql`coalesce(${users.emailConfirmedAt}, ${at})`,
          updatedAt: at,
        })
        .where(and(eq(users.id, uid), eq(users.orgId, link.orgId), eq(users.status, 'active')))
        .returning()
      if (!updated) return null
      await revokeSessions(tx, uid, 'password_reset')
      await revokeLinks(tx, uid, ['password_reset', 'magic_link'])
      return updated
    })
    if (!user) throw invalidLink(AUTH_TEXTS.invalidOrExpiredResetLink)
    afterCommit([passwordChangedMail(target, { to: user.email, firstName: user.firstName })])
    return { status: 'success' as const }
  }

  /**
   * POST set-password/: an invite link sets the invited user's first password, once, only for the
   * uid and organisation it was issued to, and not after it was revoked (LT10).
   */
  async function setPassword(input: { uid: string; token: string; new_password: string }) {
    const policy = passwordPolicyError(input.new_password)
    if (policy) throw badPassword(policy)
    const uid = parseUid(input.uid)
    if (uid === null) throw invalidLink(AUTH_TEXTS.invalidOrExpiredToken)
    if (!(await linkUsable('invite', input.token, uid))) {
      await recordWrongToken(uid, 'invite', input.token)
      throw invalidLink(AUTH_TEXTS.invalidOrExpiredToken)
    }
    const passwordHash = await hashPassword(input.new_password)
    const user = await db.transaction(async (tx) => {
      const link = await consumeLink(tx, 'invite', input.token, uid)
      if (!link) return null
      const at = deps.now()
      const [updated] = await tx
        .update(users)
        .set({
          passwordHash,
          status: 'active',
          emailConfirmedAt: at,
          mustChangePassword: false,
          updatedAt: at,
        })
        .where(and(eq(users.id, uid), eq(users.orgId, link.orgId), eq(users.status, 'invited')))
        .returning()
      return updated ?? null
    })
    if (!user) throw invalidLink(AUTH_TEXTS.invalidOrExpiredToken)
    return { status: 'success' as const }
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
      `select s.expires_at,
              s.revoked_at is not null or u.status <> 'active'
                or (s.parent_id is not null and ${endedAncestor('s')}) as ended,
              u.id, u.email, u.first_name, u.last_name, u.role, u.must_change_password, u.org_id
         from sessions s join users u on u.id = s.user_id
        where s.id = $1`,
      [claims.sid],
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

  /**
   * POST admin/users/invite/ (admins). The license row is locked for the seat count, so parallel
   * invites at the last seat give exactly one success (TI6); the invite is audited (TI7).
   */
  async function inviteUser(
    auth: AuthContext,
    input: InviteUserRequest,
    requestId: string,
  ): Promise<InviteUserResponse> {
    const emailError = registrationEmailError(input.email)
    if (emailError) {
      throw apiError(400, emailError, { msg: emailError, code: ERROR_CODES.validation })
    }
    const email = normaliseEmail(input.email)
    const orgId = auth.org.id
    let outcome: { user: UserRow; mail: MailMessage } | ApiException
    try {
      outcome = await db.transaction(async (tx) => {
        const [license] = await tx
          .select()
          .from(licenses)
          .where(eq(licenses.orgId, orgId))
          .for('update')
        const existing = await findUserByEmail(tx, email)
        let user: UserRow | undefined
        const at = deps.now()
        if (existing) {
          if (existing.orgId !== orgId || existing.status !== 'invited') {
            return apiError(409, AUTH_TEXTS.emailInUse, {
              msg: AUTH_TEXTS.emailInUse,
              code: ERROR_CODES.conflict,
            })
          }
          // inviting an invited user again sends a new link; the old one dies (LT10)
          user = existing
        } else {
          const [seats] = await tx
            .select({ count: sql<number>`count(*)::int` })
            .from(users)
            .where(and(eq(users.orgId, orgId), ne(users.status, 'removed')))
          const maxUsers = license?.maxUsers ?? FREE_TIER.maxUsers
          if ((seats?.count ?? 0) >= maxUsers) {
            return apiError(409, userLimitText(maxUsers), {
              msg: userLimitText(maxUsers),
              code: AUTH_ERROR_CODES.licenseLimit,
            })
          }
          ;[user] = await tx
            .insert(users)
            .values({
              orgId,
              email,
              firstName: input.first_name?.trim() ?? '',
              lastName: input.last_name?.trim() ?? '',
              role: input.role ?? 'member',
              status: 'invited',
              createdAt: at,
              updatedAt: at,
            })
            .returning()
        }
        if (!user) throw new Error('user insert returned no row')
        const token = await issueLink(tx, user, 'invite')
        await tx.insert(auditEvents).values({
          orgId,
          actorId: auth.user.id,
          action: existing ? 'user.reinvited' : 'user.invited',
          target: `user:${user.id}`,
          requestId,
          detail: { role: user.role },
          createdAt: at,
        })
        const [org] = await tx
          .select({ name: organizations.name })
          .from(organizations)
          .where(eq(organizations.id, orgId))
        const inviter = `${auth.user.firstName} ${auth.user.lastName}`.trim() || auth.user.email
        const mail = inviteMail(target, {
          to: user.email,
          firstName: user.firstName,
          organization: org?.name ?? 'your organisation',
          inviter,
          userId: user.id,
          token,
        })
        return { user, mail }
      })
    } catch (error) {
      if (!isUniqueViolation(error)) throw error
      outcome = apiError(409, AUTH_TEXTS.emailInUse, {
        msg: AUTH_TEXTS.emailInUse,
        code: ERROR_CODES.conflict,
      })
    }
    if (outcome instanceof ApiException) throw outcome
    afterCommit([outcome.mail])
    const { user } = outcome
    return {
      status: 'success',
      user: {
        id: user.id,
        email: user.email,
        first_name: user.firstName,
        last_name: user.lastName,
        role: user.role,
        status: user.status,
      },
    }
  }

  /** Issues a magic link (15 minutes); no call consumes one yet, the admin call comes later. */
  async function issueMagicLink(tx: Tx, user: UserRow) {
    return issueLink(tx, user, 'magic_link')
  }

  return {
    login,
    register,
    confirmEmail,
    refresh,
    tokenGet,
    requestPasswordReset,
    validateResetToken,
    confirmPasswordReset,
    setPassword,
    changePasswordForced,
    logout,
    authenticate,
    inviteUser,
    issueMagicLink,
    consumeLink,
    verifyAccess: deps.tokens.verifyAccess,
  }
}
