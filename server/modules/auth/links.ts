import { and, eq, gt, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm'
import { hashToken, randomToken } from '../../auth/tokens.ts'
import type { DbOrTx, Tx } from '../../db/index.ts'
import { type LinkPurpose, linkTokens } from '../../db/schema.ts'
import { type AuthServiceDeps, LINK_TTL_S, type LinkRow, type UserRow } from './shared.ts'

/**
 * One-time links (email confirmation, password reset, set-password, magic link): issued hashed, used once, for their own purpose only; wrong tokens are counted.
 */
export function createLinks(deps: AuthServiceDeps) {
  const { db } = deps.database

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

  /** A user's links of these purposes that are neither used nor revoked (expired ones too). */
  const open = (userId: number, purposes: LinkPurpose[]) =>
    and(
      eq(linkTokens.userId, userId),
      inArray(linkTokens.purpose, purposes),
      isNull(linkTokens.usedAt),
      isNull(linkTokens.revokedAt),
    )

  async function revokeLinks(tx: DbOrTx, userId: number, purposes: LinkPurpose[]) {
    await tx.update(linkTokens).set({ revokedAt: deps.now() }).where(open(userId, purposes))
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
      .where(open(uid, [purpose]))
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
   * The user whose link of this purpose was already used, for a second click that deserves a
   * plain word rather than 'invalid' (the token is the secret, so it tells no one else anything).
   */
  async function spentLinkUser(purpose: LinkPurpose, token: string): Promise<number | null> {
    const [row] = await db
      .select({ userId: linkTokens.userId })
      .from(linkTokens)
      .where(
        and(
          eq(linkTokens.tokenHash, hashToken(token)),
          eq(linkTokens.purpose, purpose),
          isNotNull(linkTokens.usedAt),
        ),
      )
    return row?.userId ?? null
  }

  /** Issues a magic link (10 minutes, once), for an admin's send-magic-link/. */
  async function issueMagicLink(tx: Tx, user: UserRow) {
    return issueLink(tx, user, 'magic_link')
  }

  return {
    issueLink,
    revokeLinks,
    consumeLink,
    recordWrongToken,
    linkUsable,
    issueMagicLink,
    spentLinkUser,
  }
}

export type Links = ReturnType<typeof createLinks>
