import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { validateResetTokenResponseSchema } from '../../../contract/auth.ts'
import { AUTH_TEXTS } from '../../../contract/auth-texts.ts'
import { apiPath, paths } from '../../../contract/paths.ts'
import { linkTokens, users } from '../../../server/db/schema.ts'
import { invalidTokenError, mailedLink } from '../../support/mailed-links.ts'
import { TEST_PUBLIC_URL } from '../support.ts'
import { get, HOUR, insertUser, login, post, signIn, withMailAppOnClock } from './helpers.ts'

const RESET_SENT = { status: 'success', detail: AUTH_TEXTS.resetSent }
const INVALID = { token_valid: false, user_email: null, expired: false }
const INVALID_LINK = invalidTokenError(AUTH_TEXTS.invalidOrExpiredResetLink)

describe('password reset', () => {
  const { clock, ctx, smtp } = withMailAppOnClock()

  /** Asks for a reset of a fresh user and returns the n-th mailed link. */
  async function requestReset(email: string, nth = 1) {
    const res = await post(ctx, paths.auth.requestPasswordReset, { email })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(RESET_SENT)
    return mailedLink(ctx, smtp, email, { subject: /reset/i, pathname: '/reset-password', nth })
  }

  const validate = (uid: string, token: string) =>
    post(ctx, paths.auth.validatePasswordResetToken, { uid, token })
  const confirm = (uid: string, token: string, new_password = 'A-new-password-for-me-1') =>
    post(ctx, paths.auth.confirmPasswordReset, { uid, token, new_password })

  it('mails a reset link built from PUBLIC_URL with uid and token; the link validates', async () => {
    const { email, user } = await insertUser(ctx.database)
    const { url, uid, token, mail } = await requestReset(email)
    expect(url.origin).toBe(TEST_PUBLIC_URL)
    expect(uid).toBe(String(user.id))
    expect(token.length).toBeGreaterThanOrEqual(43)
    expect(mail.subject).toBe('Reset your Quire password')
    const res = await validate(uid, token)
    expect(res.status).toBe(200)
    expect(validateResetTokenResponseSchema.parse(res.body)).toEqual({
      token_valid: true,
      user_email: email,
      expired: false,
    })
  })

  it('LT6: known and unknown addresses get the same answer; only the known one gets mail', async () => {
    const { email } = await insertUser(ctx.database)
    const known = await post(ctx, paths.auth.requestPasswordReset, { email })
    const unknown = await post(ctx, paths.auth.requestPasswordReset, {
      email: 'nobody-at-all@example.com',
    })
    expect(known.status).toBe(unknown.status)
    expect(known.body).toEqual(RESET_SENT)
    expect(unknown.body).toEqual(known.body)
    await ctx.mailer.idle()
    await smtp.waitFor(email)
    expect(smtp.to('nobody-at-all@example.com')).toHaveLength(0)
  })

  it('LT6: disabled, removed and invited accounts get the same answer and no mail', async () => {
    for (const status of ['disabled', 'removed', 'invited'] as const) {
      const { email } = await insertUser(ctx.database, { status })
      const res = await post(ctx, paths.auth.requestPasswordReset, { email })
      expect(res.body).toEqual(RESET_SENT)
      await ctx.mailer.idle()
      expect(smtp.to(email), status).toHaveLength(0)
    }
  })

  it('resets the password: the new one signs in, the old one does not, a notice is mailed', async () => {
    const { email, password } = await insertUser(ctx.database)
    const { uid, token } = await requestReset(email)
    const res = await confirm(uid, token, 'Fresh-password-after-reset-1')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ status: 'success' })
    expect((await login(ctx, email, password)).status).toBe(401)
    expect((await login(ctx, email, 'Fresh-password-after-reset-1')).status).toBe(200)
    await ctx.mailer.idle()
    const notice = await smtp.waitFor(email, { subject: /changed/i })
    expect(notice.subject).toBe('Your Quire password was changed')
    expect(notice.subject).not.toMatch(/reset/i)
  })

  it('AS6: a reset revokes every session of the user', async () => {
    const { email, password } = await insertUser(ctx.database)
    const a = await signIn(ctx, email, password)
    const b = await signIn(ctx, email, password)
    const { uid, token } = await requestReset(email)
    expect((await confirm(uid, token)).status).toBe(200)
    for (const session of [a, b]) {
      expect((await get(ctx, paths.account.profile, session.access)).status).toBe(401)
      expect((await post(ctx, paths.auth.tokenRefresh, { refresh: session.refresh })).status).toBe(
        401,
      )
    }
  })

  it('a reset also confirms an unconfirmed address and clears a forced change', async () => {
    const { email, user } = await insertUser(ctx.database, {
      confirmed: false,
      mustChangePassword: true,
    })
    const { uid, token } = await requestReset(email)
    expect((await confirm(uid, token, 'Confirmed-by-reset-42')).status).toBe(200)
    const signedIn = await signIn(ctx, email, 'Confirmed-by-reset-42')
    expect(signedIn.requires_password_change).toBe(false)
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, user.id))
    expect(row?.emailConfirmedAt).toBeInstanceOf(Date)
  })

  it('refuses a weak new password with the policy text and keeps the link usable', async () => {
    const { email } = await insertUser(ctx.database)
    const { uid, token } = await requestReset(email)
    const short = await confirm(uid, token, 'short')
    expect(short.status).toBe(400)
    expect(short.body).toEqual({
      error: AUTH_TEXTS.passwordTooShort,
      msg: AUTH_TEXTS.passwordTooShort,
      code: 'invalid_password',
    })
    const common = await confirm(uid, token, 'password1')
    expect(common.body.error).toBe(AUTH_TEXTS.passwordTooCommon)
    expect((await validate(uid, token)).body.token_valid).toBe(true)
    expect((await confirm(uid, token)).status).toBe(200)
  })

  it('LT1: a reset token works once; a second confirm gets 400 and leaves the password unchanged', async () => {
    const { email } = await insertUser(ctx.database)
    const { uid, token } = await requestReset(email)
    expect((await confirm(uid, token, 'First-new-password-1')).status).toBe(200)
    const second = await confirm(uid, token, 'Second-new-password-2')
    expect(second.status).toBe(400)
    expect(second.body).toEqual(INVALID_LINK)
    expect((await login(ctx, email, 'First-new-password-1')).status).toBe(200)
    expect((await login(ctx, email, 'Second-new-password-2')).status).toBe(401)
    expect((await validate(uid, token)).body).toEqual(INVALID)
  })

  it('LT1: two concurrent confirms give one success', async () => {
    const { email } = await insertUser(ctx.database)
    const { uid, token } = await requestReset(email)
    const results = await Promise.all([
      confirm(uid, token, 'Concurrent-one-pass-1'),
      confirm(uid, token, 'Concurrent-two-pass-2'),
      confirm(uid, token, 'Concurrent-three-pass-3'),
    ])
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400])
    const winners = await Promise.all(
      ['Concurrent-one-pass-1', 'Concurrent-two-pass-2', 'Concurrent-three-pass-3'].map(
        async (password) => (await login(ctx, email, password)).status,
      ),
    )
    expect(winners.filter((status) => status === 200)).toHaveLength(1)
  })

  it('LT2: a reset link works at 59:59 and fails at 60:01', async () => {
    const a = await insertUser(ctx.database)
    const b = await insertUser(ctx.database)
    const first = await requestReset(a.email)
    const second = await requestReset(b.email)
    clock.advance(HOUR - 1000)
    expect((await validate(first.uid, first.token)).body.token_valid).toBe(true)
    expect((await confirm(first.uid, first.token)).status).toBe(200)
    clock.advance(2000)
    const late = await confirm(second.uid, second.token)
    expect(late.status).toBe(400)
    expect(late.body).toEqual(INVALID_LINK)
  })

  it("an expired link validates as expired, with its address, so the page can offer 'Send New Reset Link'", async () => {
    const { email } = await insertUser(ctx.database)
    const { uid, token } = await requestReset(email)
    clock.advance(HOUR + 1000)
    const res = await validate(uid, token)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ token_valid: false, user_email: email, expired: true })
    // asking again mails a new, working link
    const fresh = await requestReset(email, 2)
    expect(fresh.token).not.toBe(token)
    expect((await validate(fresh.uid, fresh.token)).body.token_valid).toBe(true)
  })

  it('unknown, malformed, foreign-uid and used tokens validate as invalid without an address', async () => {
    const a = await insertUser(ctx.database)
    const b = await insertUser(ctx.database)
    const link = await requestReset(a.email)
    expect((await validate(link.uid, 'not-a-real-token')).body).toEqual(INVALID)
    expect((await validate('abc', link.token)).body).toEqual(INVALID)
    expect((await validate(String(b.user.id), link.token)).body).toEqual(INVALID)
    expect((await confirm(String(b.user.id), link.token)).status).toBe(400)
    expect((await validate(link.uid, link.token)).body.token_valid).toBe(true)
    const missing = await post(ctx, paths.auth.validatePasswordResetToken, { uid: link.uid })
    expect(missing.status).toBe(400)
  })

  it('LT4: a new reset request invalidates older links', async () => {
    const { email } = await insertUser(ctx.database)
    const first = await requestReset(email)
    const second = await requestReset(email, 2)
    expect((await validate(first.uid, first.token)).body).toEqual(INVALID)
    expect((await confirm(first.uid, first.token)).status).toBe(400)
    expect((await confirm(second.uid, second.token)).status).toBe(200)
  })

  it('LT4: a password change invalidates older reset links', async () => {
    const { email, password, user } = await insertUser(ctx.database)
    const link = await requestReset(email)
    await ctx.database.db
      .update(users)
      .set({ mustChangePassword: true })
      .where(eq(users.id, user.id))
    const session = await signIn(ctx, email, password)
    const changed = await post(
      ctx,
      paths.auth.changePasswordForced,
      { new_password: 'Changed-meanwhile-42' },
      session.access,
    )
    expect(changed.status).toBe(200)
    expect((await validate(link.uid, link.token)).body).toEqual(INVALID)
    expect((await confirm(link.uid, link.token)).status).toBe(400)
  })

  it('LT5: after 5 wrong tokens for a uid even the correct one fails', async () => {
    const { email } = await insertUser(ctx.database)
    const { uid, token } = await requestReset(email)
    for (let i = 0; i < 5; i += 1) {
      const guess = i % 2 === 0 ? confirm(uid, `guess-${i}`) : validate(uid, `guess-${i}`)
      expect((await guess).status).toBeLessThan(500)
    }
    expect((await validate(uid, token)).body).toEqual(INVALID)
    const res = await confirm(uid, token)
    expect(res.status).toBe(400)
    expect(res.body).toEqual(INVALID_LINK)
    // a fresh link (its own counter) works again
    const fresh = await requestReset(email, 2)
    expect((await confirm(fresh.uid, fresh.token)).status).toBe(200)
  })

  it('LT5: 4 wrong tokens still leave the correct one working', async () => {
    const { email } = await insertUser(ctx.database)
    const { uid, token } = await requestReset(email)
    for (let i = 0; i < 4; i += 1) await confirm(uid, `guess-${i}`)
    expect((await confirm(uid, token)).status).toBe(200)
  })

  it('LT9: validating, a GET or a HEAD never consumes a reset token', async () => {
    const { email, user } = await insertUser(ctx.database)
    const { uid, token } = await requestReset(email)
    for (let i = 0; i < 3; i += 1) expect((await validate(uid, token)).body.token_valid).toBe(true)
    for (const method of ['GET', 'HEAD']) {
      await ctx.app.request(
        `${apiPath(paths.auth.confirmPasswordReset)}?uid=${uid}&token=${token}`,
        { method },
      )
    }
    const [row] = await ctx.database.db
      .select()
      .from(linkTokens)
      .where(and(eq(linkTokens.userId, user.id), eq(linkTokens.purpose, 'password_reset')))
    expect(row?.usedAt).toBeNull()
    expect((await confirm(uid, token)).status).toBe(200)
  })

  it('caps reset mails per account: further requests answer alike and mail nothing', async () => {
    const { email } = await insertUser(ctx.database)
    for (let i = 0; i < 7; i += 1) {
      expect((await post(ctx, paths.auth.requestPasswordReset, { email })).body).toEqual(RESET_SENT)
    }
    await ctx.mailer.idle()
    expect(smtp.to(email)).toHaveLength(5)
  })
})
