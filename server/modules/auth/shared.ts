import {
  AUTH_ERROR_CODES,
  CONFIRM_LINK_TTL_S,
  INVITE_LINK_TTL_S,
  MAGIC_LINK_TTL_S,
  RESET_LINK_TTL_S,
} from '../../../contract/auth.ts'
import { AUTH_TEXTS } from '../../../contract/auth-texts.ts'
import { ERROR_CODES } from '../../../contract/errors.ts'
import type { RateLimiter, RateRule } from '../../auth/rate-limit.ts'
import type { AccessUser, Clock, TokenService } from '../../auth/tokens.ts'
import type { Database } from '../../db/index.ts'
import type { LinkPurpose, linkTokens, users } from '../../db/schema.ts'
import { apiError } from '../../http/errors.ts'
import type { Logger } from '../../logger.ts'
import type { Mailer, MailMessage } from '../../mail/index.ts'

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
  /** Single sign-on and Google sign-in starts per client address (each writes a flow). */
  ssoStarts: RateRule
}

export const DEFAULT_AUTH_LIMITS: AuthLimits = {
  loginFailures: { limit: 5, windowMs: 15 * 60_000, bucketMs: 60_000 },
  perAddress: { limit: 60, windowMs: 60_000, bucketMs: 5_000 },
  resetMails: { limit: 5, windowMs: 60 * 60_000, bucketMs: 5 * 60_000 },
  linkAttempts: 5,
  ssoStarts: { limit: 20, windowMs: 60_000, bucketMs: 5_000 },
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

export type UserRow = typeof users.$inferSelect
export type LinkRow = typeof linkTokens.$inferSelect

export const LINK_TTL_S: Record<LinkPurpose, number> = {
  confirm_email: CONFIRM_LINK_TTL_S,
  password_reset: RESET_LINK_TTL_S,
  invite: INVITE_LINK_TTL_S,
  magic_link: MAGIC_LINK_TTL_S,
}

/** Live sessions one user may hold; a new sign-in past it ends the oldest. */
export const MAX_LIVE_SESSIONS = 50

export const normaliseEmail = (email: string) => email.trim().toLowerCase()
export const parseUid = (uid: string) => (/^\d{1,15}$/.test(uid.trim()) ? Number(uid.trim()) : null)
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export const toAccessUser = (user: UserRow): AccessUser => ({
  id: user.id,
  email: user.email,
  first_name: user.firstName,
  last_name: user.lastName,
  role: user.role,
})

export const wrongCredentials = () =>
  apiError(401, AUTH_TEXTS.wrongCredentials, { code: AUTH_ERROR_CODES.invalidCredentials })
export const tooManyAttempts = (retryAfterS: number) =>
  apiError(
    429,
    AUTH_TEXTS.tooManyAttempts,
    { msg: AUTH_TEXTS.tooManyAttempts, code: ERROR_CODES.rateLimited },
    { 'Retry-After': String(retryAfterS) },
  )
export const sessionExpired = () =>
  apiError(401, AUTH_TEXTS.sessionExpired, { code: AUTH_ERROR_CODES.sessionExpired })
export const badPassword = (text: string) =>
  apiError(400, text, { msg: text, code: AUTH_ERROR_CODES.invalidPassword })
export const invalidLink = (text: string) =>
  apiError(400, text, { msg: text, code: AUTH_ERROR_CODES.invalidToken })

export function isUniqueViolation(error: unknown): boolean {
  for (let current = error; current && typeof current === 'object'; ) {
    if ((current as { code?: unknown }).code === '23505') return true
    current = (current as { cause?: unknown }).cause
  }
  return false
}

/**
 * SQL condition: some session above `alias` (its parent, the parent's parent, ...) has ended. A
 * session issued by token/get never outlives the session that issued it, however that one ended
 * (logout ends the tree at once; this holds for every other way a session ends).
 */
export function endedAncestor(alias: string): string {
  return `exists (
    with recursive up(id, parent_id, revoked_at) as (
      select p.id, p.parent_id, p.revoked_at from sessions p where p.id = ${alias}.parent_id
      union all
      select p.id, p.parent_id, p.revoked_at from sessions p join up on p.id = up.parent_id
    )
    select 1 from up where up.revoked_at is not null)`
}

/** Sends mail once the transaction that decided it has committed (never for a rolled-back one). */
export const mailAfterCommit =
  (deps: Pick<AuthServiceDeps, 'mailer'>) => (messages: MailMessage[]) => {
    for (const message of messages) deps.mailer.send(message)
  }

/** What the flows that mail links need: the database, mail after commit, and where links point. */
export const mailingFlow = (deps: AuthServiceDeps) => ({
  db: deps.database.db,
  afterCommit: mailAfterCommit(deps),
  target: { publicUrl: deps.publicUrl },
})
