import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loginResponseSchema } from '../../../contract/auth.ts'
import { AUTH_TEXTS } from '../../../contract/auth-texts.ts'
import { paths } from '../../../contract/paths.ts'
import { users } from '../../../server/db/schema.ts'
import { DEFAULT_AUTH_LIMITS } from '../../../server/modules/auth/service.ts'
import { createTestApp, withTestApp } from '../support.ts'
import {
  get,
  insertUser,
  login,
  median,
  newAccount,
  post,
  registerAndConfirm,
  registerBody,
  signIn,
  type TestApp,
  withMailApp,
} from './helpers.ts'

describe('POST admin/login/', () => {
  const { ctx, smtp } = withMailApp({})

  it('signs a confirmed user in with access, refresh and requires_password_change', async () => {
    const { account } = await registerAndConfirm(ctx, smtp)
    const res = await login(ctx, account.email.toUpperCase(), account.password)
    expect(res.status).toBe(200)
    const body = loginResponseSchema.parse(res.body)
    expect(body.requires_password_change).toBe(false)
    expect(Object.keys(res.body).sort()).toEqual(['access', 'refresh', 'requires_password_change'])
    const [row] = await ctx.database.db
      .select({ lastLoginAt: users.lastLoginAt })
      .from(users)
      .where(eq(users.email, account.email))
    expect(row?.lastLoginAt).toBeInstanceOf(Date)
  })

  it("AS1: unknown email and wrong password answer the same 401 body, 'Wrong credentials'", async () => {
    const { email } = await insertUser(ctx.database)
    const wrong = await login(ctx, email, 'not-the-password-1')
    const unknown = await login(ctx, 'nobody-here@example.com', 'not-the-password-1')
    expect(wrong.status).toBe(401)
    expect(unknown.status).toBe(401)
    expect(wrong.body).toEqual({ error: 'Wrong credentials', code: 'invalid_credentials' })
    expect(unknown.body).toEqual(wrong.body)
    expect(wrong.headers.get('content-type')).toBe(unknown.headers.get('content-type'))
  })

  it('AS1: the median latency of unknown email and wrong password differs by under 20 ms', async () => {
    const tries = 24
    // distinct accounts and addresses, so the per-account limit (AS2) never steps in
    const known = await Promise.all(
      Array.from({ length: tries + 1 }, () => insertUser(ctx.database)),
    )
    // warm both paths (the dummy hash is computed on first use)
    await login(ctx, 'warm-up-unknown@example.com', 'wrong-password-1')
    await login(ctx, known[tries]?.email ?? '', 'wrong-password-1')
    const unknownMs: number[] = []
    const wrongMs: number[] = []
    for (let i = 0; i < tries; i += 1) {
      let started = performance.now()
      const a = await login(ctx, `unknown-${i}-${Date.now()}@example.com`, 'wrong-password-1')
      unknownMs.push(performance.now() - started)
      started = performance.now()
      const b = await login(ctx, known[i]?.email ?? '', 'wrong-password-1')
      wrongMs.push(performance.now() - started)
      expect([a.status, b.status]).toEqual([401, 401])
    }
    const difference = Math.abs(median(unknownMs) - median(wrongMs))
    // and unknown emails really pay for an argon2 verification: not merely fast enough to hide
    expect(median(unknownMs)).toBeGreaterThan(median(wrongMs) * 0.6)
    expect(difference, `unknown ${median(unknownMs)} ms, wrong ${median(wrongMs)} ms`).toBeLessThan(
      20,
    )
  })

  it('AS1: disabled, removed and invited accounts get the same 401 as a wrong password', async () => {
    for (const status of ['disabled', 'removed'] as const) {
      const { email, password } = await insertUser(ctx.database, { status })
      const res = await login(ctx, email, password)
      expect(res.status, status).toBe(401)
      expect(res.body).toEqual({ error: 'Wrong credentials', code: 'invalid_credentials' })
    }
    const invited = await insertUser(ctx.database, { status: 'invited' })
    const res = await login(ctx, invited.email, invited.password)
    expect(res.status).toBe(401)
    expect(res.body.error).toBe(AUTH_TEXTS.wrongCredentials)
  })

  it('an unconfirmed email with the right password gets 403 and a clear message', async () => {
    const account = newAccount('unconfirmed')
    expect((await post(ctx, paths.auth.register, registerBody(account))).status).toBe(200)
    const res = await login(ctx, account.email, account.password)
    expect(res.status).toBe(403)
    expect(res.body).toEqual({
      error: AUTH_TEXTS.emailNotConfirmed,
      msg: AUTH_TEXTS.emailNotConfirmed,
      code: 'email_not_confirmed',
    })
    // with a wrong password it is an ordinary failure: nothing about the account leaks
    const wrong = await login(ctx, account.email, 'Wrong-password-123')
    expect(wrong.status).toBe(401)
  })

  it('AS2: the 6th failed login for one account within 15 min gets 429, whatever X-Forwarded-For says', async () => {
    const { email, password } = await insertUser(ctx.database)
    for (let i = 1; i <= 5; i += 1) {
      const res = await ctx.app.request('/api/v1/admin/login/', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.${i}` },
        body: JSON.stringify({ email, password: `wrong-${i}-password` }),
      })
      expect(res.status, `attempt ${i}`).toBe(401)
    }
    const sixth = await ctx.app.request('/api/v1/admin/login/', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.77' },
      body: JSON.stringify({ email, password }),
    })
    expect(sixth.status).toBe(429)
    expect(await sixth.json()).toEqual({
      error: AUTH_TEXTS.tooManyAttempts,
      msg: AUTH_TEXTS.tooManyAttempts,
      code: 'rate_limited',
    })
    const retryAfter = Number(sixth.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(15 * 60)
    // another account is not affected
    const other = await insertUser(ctx.database)
    expect((await login(ctx, other.email, other.password)).status).toBe(200)
  })

  it('AS2: an unknown email is limited the same way (the limit reveals nothing)', async () => {
    const email = 'never-registered@example.com'
    for (let i = 0; i < 5; i += 1)
      expect((await login(ctx, email, 'x-wrong-pass')).status).toBe(401)
    expect((await login(ctx, email, 'x-wrong-pass')).status).toBe(429)
  })

  it('AS3: stored hashes are argon2id with the OWASP parameters', async () => {
    const { account } = await registerAndConfirm(ctx, smtp)
    const [row] = await ctx.database.db
      .select({ hash: users.passwordHash })
      .from(users)
      .where(eq(users.email, account.email))
    expect(row?.hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
  })

  it('validates the body: a missing password is a 400 in the error shape', async () => {
    const res = await post(ctx, paths.auth.login, { email: 'a@example.com' })
    expect(res.status).toBe(400)
    expect(res.body.code).toBe('validation_error')
    const bad = await ctx.app.request('/api/v1/admin/login/', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{not json',
    })
    expect(bad.status).toBe(400)
  })

  it('AS7: a flagged account signs in with requires_password_change and gets 403 everywhere but change and logout', async () => {
    const { email, password } = await insertUser(ctx.database, { mustChangePassword: true })
    const session = await signIn(ctx, email, password)
    expect(session.requires_password_change).toBe(true)
    for (const [method, path] of [
      ['GET', paths.account.profile],
      ['GET', paths.account.license],
      ['POST', paths.auth.tokenGet],
      ['POST', paths.users.invite],
    ] as const) {
      const res =
        method === 'GET'
          ? await get(ctx, path, session.access)
          : await post(ctx, path, { email: 'x@example.com' }, session.access)
      expect(res.status, path).toBe(403)
      expect(res.body).toEqual({
        error: AUTH_TEXTS.passwordChangeRequired,
        msg: AUTH_TEXTS.passwordChangeRequired,
        code: 'password_change_required',
      })
    }
    // a weak new password is refused with the policy text
    const weak = await post(
      ctx,
      paths.auth.changePasswordForced,
      { new_password: 'short' },
      session.access,
    )
    expect(weak.status).toBe(400)
    expect(weak.body.error).toBe(AUTH_TEXTS.passwordTooShort)
    const same = await post(
      ctx,
      paths.auth.changePasswordForced,
      { new_password: password },
      session.access,
    )
    expect(same.status).toBe(400)
    expect(same.body.error).toBe(AUTH_TEXTS.passwordUnchanged)

    // AS8: no current password is asked for here: the caller proved it at the sign-in that
    // raised the flag a moment ago
    const changed = await post(
      ctx,
      paths.auth.changePasswordForced,
      { new_password: 'A-brand-new-password-77' },
      session.access,
    )
    expect(changed.status).toBe(200)
    expect(changed.body.status).toBe('success')
    expect(typeof changed.body.access).toBe('string')
    expect(typeof changed.body.refresh).toBe('string')
    // the old session is gone, the new one works and is no longer restricted
    expect((await get(ctx, paths.account.profile, session.access)).status).toBe(401)
    expect((await post(ctx, paths.auth.tokenRefresh, { refresh: session.refresh })).status).toBe(
      401,
    )
    expect((await get(ctx, paths.account.profile, changed.body.access)).status).toBe(200)
    expect((await login(ctx, email, password)).status).toBe(401)
    const again = await signIn(ctx, email, 'A-brand-new-password-77')
    expect(again.requires_password_change).toBe(false)
    await ctx.mailer.idle()
    expect((await smtp.waitFor(email, { subject: /password was changed/i })).text).toContain(
      'changed',
    )
  })

  it('AS7: logout works for a flagged account', async () => {
    const { email, password } = await insertUser(ctx.database, { mustChangePassword: true })
    const session = await signIn(ctx, email, password)
    const res = await post(ctx, paths.auth.logout, { refresh: session.refresh }, session.access)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ status: 'success' })
  })

  it('AS7: a temporary password dies at its first use and after 24 h', async () => {
    const fresh = await insertUser(ctx.database, {
      mustChangePassword: true,
      tempPasswordExpiresAt: new Date(Date.now() + 24 * 3600_000),
    })
    expect((await login(ctx, fresh.email, fresh.password)).status).toBe(200)
    const second = await login(ctx, fresh.email, fresh.password)
    expect(second.status).toBe(401)
    expect(second.body.error).toBe(AUTH_TEXTS.wrongCredentials)

    const stale = await insertUser(ctx.database, {
      mustChangePassword: true,
      tempPasswordExpiresAt: new Date(Date.now() - 1000),
    })
    expect((await login(ctx, stale.email, stale.password)).status).toBe(401)
  })

  it('AS8: the forced-change call cannot change the password of an account that is not flagged', async () => {
    const { email, password } = await insertUser(ctx.database)
    const session = await signIn(ctx, email, password)
    const res = await post(
      ctx,
      paths.auth.changePasswordForced,
      { new_password: 'Another-password-99' },
      session.access,
    )
    expect(res.status).toBe(403)
    expect(res.body.error).toBe(AUTH_TEXTS.passwordChangeNotRequired)
    expect((await login(ctx, email, password)).status).toBe(200)
  })
})

describe('per-address limit on sign-in, registration and reset requests', () => {
  const ctx = withTestApp({ authLimits: { perAddress: { limit: 3, windowMs: 60_000 } } })

  it('answers 429 with Retry-After once an address passes its limit', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 3; i += 1) {
      statuses.push((await login(ctx, `someone-${i}@example.com`, 'whatever-pass')).status)
    }
    expect(statuses).toEqual([401, 401, 401])
    const reset = await post(ctx, paths.auth.requestPasswordReset, { email: 'x@example.com' })
    expect(reset.status).toBe(429)
    expect(reset.body.error).toBe(AUTH_TEXTS.tooManyAttempts)
    expect(Number(reset.headers.get('retry-after'))).toBeGreaterThan(0)
    const register = await post(ctx, paths.auth.register, registerBody(newAccount()))
    expect(register.status).toBe(429)
  })
})

describe('AS2 under a race (issue 14 fix 2)', () => {
  const threshold = DEFAULT_AUTH_LIMITS.loginFailures.limit
  let ctx: TestApp
  beforeAll(async () => {
    // a generous per-address limit, so that only the per-account lockout is measured
    ctx = await createTestApp({
      authLimits: { perAddress: { limit: 10_000, windowMs: 60_000, bucketMs: 5_000 } },
    })
  })
  afterAll(() => ctx.close())

  it('of 50 parallel wrong passwords at most the threshold are verified; the rest get 429', async () => {
    const { email, password } = await insertUser(ctx.database)
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => login(ctx, email, `wrong-password-${i}-in-a-race`)),
    )
    // a 429 is answered before the password is looked at: every 401 is one argon2 verification
    const verified = results.filter((res) => res.status === 401).length
    const limited = results.filter((res) => res.status === 429)
    expect(verified).toBeGreaterThan(0)
    expect(verified).toBeLessThanOrEqual(threshold)
    expect(verified + limited.length).toBe(50)
    for (const res of limited) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    // the right password is locked out too
    expect((await login(ctx, email, password)).status).toBe(429)
  })

  it('a success clears the count: four failures, a success, then five failures before 429', async () => {
    const { email, password } = await insertUser(ctx.database)
    for (let i = 0; i < threshold - 1; i += 1)
      expect((await login(ctx, email, 'wrong-password-x')).status).toBe(401)
    expect((await login(ctx, email, password)).status).toBe(200)
    for (let i = 0; i < threshold; i += 1)
      expect((await login(ctx, email, 'wrong-password-y')).status).toBe(401)
    expect((await login(ctx, email, 'wrong-password-z')).status).toBe(429)
  })

  it('the right password of an unconfirmed account clears the count too', async () => {
    const { email, password } = await insertUser(ctx.database, { confirmed: false })
    for (let i = 0; i < threshold + 3; i += 1)
      expect((await login(ctx, email, password)).status).toBe(403)
  })
})

describe('AS2 under a race across a bucket boundary (issue 14 fix 2)', () => {
  const threshold = DEFAULT_AUTH_LIMITS.loginFailures.limit
  const bucketMs = DEFAULT_AUTH_LIMITS.loginFailures.bucketMs ?? 60_000
  // every other reading of the clock falls 1 ms before a bucket starts: parallel attempts are
  // counted in two buckets (two rows), and must still see each other
  const boundary = Math.ceil(Date.UTC(2030, 0, 1, 9) / bucketMs) * bucketMs
  let readings = 0
  const now = () => {
    readings += 1
    return new Date(boundary - (readings % 2))
  }
  let ctx: TestApp
  beforeAll(async () => {
    ctx = await createTestApp({
      now,
      authLimits: { perAddress: { limit: 10_000, windowMs: 60_000, bucketMs: 5_000 } },
    })
  })
  afterAll(() => ctx.close())

  it('of 50 parallel wrong passwords counted in two buckets at most the threshold are verified', async () => {
    for (let round = 0; round < 3; round += 1) {
      const { email } = await insertUser(ctx.database)
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => login(ctx, email, `wrong-password-${i}-in-a-race`)),
      )
      const buckets = await ctx.database.pool.query(
        'select count(*)::int as n from rate_limits where key = $1',
        [`login-fail:${email}`],
      )
      expect(buckets.rows[0].n).toBe(2)
      expect(results.filter((res) => res.status === 401).length).toBeLessThanOrEqual(threshold)
      expect(results.filter((res) => res.status === 429).length).toBeGreaterThanOrEqual(
        50 - threshold,
      )
    }
  })
})
