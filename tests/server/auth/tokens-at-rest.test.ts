import { Writable } from 'node:stream'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { paths } from '../../../contract/paths.ts'
import { createRateLimiter } from '../../../server/auth/rate-limit.ts'
import { createTokenService, hashToken, randomToken } from '../../../server/auth/tokens.ts'
import { createLogger } from '../../../server/logger.ts'
import { createAuthService, DEFAULT_AUTH_LIMITS } from '../../../server/modules/auth/service.ts'
import { startSmtpCapture } from '../../support/smtp.ts'
import { createTestApp, TEST_JWT_SECRET, TEST_PUBLIC_URL, withTestApp } from '../support.ts'
import {
  insertUser,
  MINUTE,
  manualClock,
  post,
  registerAndConfirm,
  signIn,
  type TestApp,
  tokenOf,
} from './helpers.ts'

describe('tokens at rest and in logs', () => {
  const clock = manualClock()
  const logLines: string[] = []
  let ctx: TestApp
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>
  beforeAll(async () => {
    smtp = await startSmtpCapture()
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk))
        done()
      },
    })
    ctx = await createTestApp({ smtp, now: clock.now, logger: createLogger('trace', sink) })
  })
  afterAll(async () => {
    await ctx.close()
    await smtp.close()
  })

  /** Every row of every table outside PostgreSQL's own schemas, as text. */
  async function dumpDatabase(): Promise<string> {
    const tables = await ctx.database.pool.query<{ schema: string; name: string }>(
      `select table_schema as schema, table_name as name from information_schema.tables
        where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`,
    )
    const parts: string[] = []
    for (const { schema, name } of tables.rows) {
      const rows = await ctx.database.pool.query<{ row: string }>(
        `select t::text as row from "${schema}"."${name}" t`,
      )
      parts.push(...rows.rows.map((r) => r.row))
    }
    return parts.join('\n')
  }

  it('LT3: the database never holds a raw token of any kind', async () => {
    const raw: string[] = []
    // confirmation link, first session
    const first = await registerAndConfirm(ctx, smtp)
    const confirmMail = smtp.to(first.account.email)[0]
    if (confirmMail) raw.push(tokenOf(confirmMail, '/confirm_email').token)
    raw.push(first.access, first.refresh)
    // rotation and token/get
    const rotated = await post(ctx, paths.auth.tokenRefresh, { refresh: first.refresh })
    raw.push(rotated.body.access, rotated.body.refresh)
    const extra = await post(ctx, paths.auth.tokenGet, {}, rotated.body.access)
    raw.push(extra.body.access, extra.body.refresh)
    // reset links, used and unused
    await post(ctx, paths.auth.requestPasswordReset, { email: first.account.email })
    await ctx.mailer.idle()
    const reset = tokenOf(
      await smtp.waitFor(first.account.email, { subject: /reset/i }),
      '/reset-password',
    )
    raw.push(reset.token)
    await post(ctx, paths.auth.requestPasswordReset, { email: first.account.email })
    await ctx.mailer.idle()
    const reset2 = tokenOf(
      await smtp.waitFor(first.account.email, { subject: /reset/i, nth: 2 }),
      '/reset-password',
    )
    raw.push(reset2.token)
    await post(ctx, paths.auth.confirmPasswordReset, {
      uid: reset2.uid,
      token: reset2.token,
      new_password: 'After-the-reset-pass-9',
    })
    // an invite
    const admin = await signIn(ctx, first.account.email, 'After-the-reset-pass-9')
    raw.push(admin.access, admin.refresh)
    await post(ctx, paths.users.invite, { email: 'rest-invitee@example.com' }, admin.access)
    await ctx.mailer.idle()
    const invite = tokenOf(await smtp.waitFor('rest-invitee@example.com'), '/set-password')
    raw.push(invite.token)

    const dump = await dumpDatabase()
    expect(dump.length).toBeGreaterThan(1000)
    for (const token of raw) {
      expect(token.length).toBeGreaterThan(20)
      expect(dump.includes(token), `raw token found in the database`).toBe(false)
    }
    // what is stored is the SHA-256 of each opaque token
    expect(dump).toContain(hashToken(invite.token))
    expect(dump).toContain(hashToken(first.refresh))
  })

  it('LT3: tokens carry at least 128 bits from the CSPRNG (256 here) and never repeat', () => {
    const tokens = new Set(Array.from({ length: 2000 }, () => randomToken()))
    expect(tokens.size).toBe(2000)
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(Buffer.from(token, 'base64url')).toHaveLength(32)
    }
  })

  it('LT8: no token appears in the request log, even when it rides in a query string', async () => {
    const { email } = await insertUser(ctx.database)
    await post(ctx, paths.auth.requestPasswordReset, { email })
    await ctx.mailer.idle()
    const { uid, token } = tokenOf(await smtp.waitFor(email), '/reset-password')
    await ctx.app.request(`/reset-password?uid=${uid}&token=${token}`)
    await ctx.app.request(`/api/v1/admin/confirm_password_reset/?uid=${uid}&token=${token}`, {
      method: 'GET',
    })
    await post(ctx, paths.auth.validatePasswordResetToken, { uid, token })
    const session = await signIn(ctx, email)
    await post(ctx, paths.auth.tokenRefresh, { refresh: session.refresh })
    const log = logLines.join('')
    expect(log).toContain('"path":"/reset-password"')
    expect(log).not.toContain(token)
    expect(log).not.toContain(session.refresh)
    expect(log).not.toContain(session.access)
  })
})

describe('LT2: magic links last 10 minutes (injected clock)', () => {
  const clock = manualClock()
  const ctx = withTestApp({ now: clock.now })

  it('LT2: a magic link is consumed once before 10 min and refused after', async () => {
    const auth = createAuthService({
      database: ctx.database,
      tokens: createTokenService({ secret: TEST_JWT_SECRET, now: clock.now }),
      limiter: createRateLimiter(ctx.database.pool, clock.now),
      mailer: ctx.mailer,
      now: clock.now,
      publicUrl: TEST_PUBLIC_URL,
      logger: createLogger('silent'),
      limits: DEFAULT_AUTH_LIMITS,
    })
    const { user } = await insertUser(ctx.database)
    const { db } = ctx.database
    const early = await db.transaction((tx) => auth.issueMagicLink(tx, user))
    clock.advance(10 * MINUTE - 1000)
    expect(await auth.consumeLink(db, 'magic_link', early, user.id)).not.toBeNull()
    expect(await auth.consumeLink(db, 'magic_link', early, user.id)).toBeNull()

    const late = await db.transaction((tx) => auth.issueMagicLink(tx, user))
    clock.advance(10 * MINUTE + 1000)
    expect(await auth.consumeLink(db, 'magic_link', late, user.id)).toBeNull()
    const [row] = (
      await db.execute<{ used_at: Date | null }>(
        sql`select used_at from link_tokens where token_hash = ${hashToken(late)}`,
      )
    ).rows
    expect(row?.used_at).toBeNull()
  })
})
