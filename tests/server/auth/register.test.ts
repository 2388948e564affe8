import { eq, sql } from 'drizzle-orm'
import { decodeJwt } from 'jose'
import { describe, expect, it } from 'vitest'
import { confirmEmailResponseSchema } from '../../../contract/auth.ts'
import { AUTH_TEXTS } from '../../../contract/auth-texts.ts'
import { apiPath, paths } from '../../../contract/paths.ts'
import { licenses, linkTokens, organizations, users } from '../../../server/db/schema.ts'
import { TEST_PUBLIC_URL } from '../support.ts'
import {
  DAY,
  get,
  login,
  newAccount,
  post,
  registerBody,
  tokenOf,
  withMailApp,
  withMailAppOnClock,
} from './helpers.ts'

const SUCCESS = { status: 'success', msg: AUTH_TEXTS.registrationSent }

describe('POST admin/register/ and admin/confirm_email/', () => {
  const { ctx, smtp } = withMailApp({})

  async function registerAndMail(account = newAccount()) {
    const res = await post(ctx, paths.auth.register, registerBody(account))
    expect(res.status).toBe(200)
    expect(res.body).toEqual(SUCCESS)
    await ctx.mailer.idle()
    const mail = await smtp.waitFor(account.email, { subject: /confirm/i })
    return { account, mail, ...tokenOf(mail, '/confirm_email') }
  }

  it('creates the organisation, its first user as an unconfirmed admin, a Free license and mails a confirmation link', async () => {
    const { account, mail, url } = await registerAndMail()
    expect(url.origin).toBe(TEST_PUBLIC_URL)
    expect(mail.subject).toBe('Confirm your email address for Quire')
    expect(mail.html).toContain('/confirm_email?uuid=')
    const [user] = await ctx.database.db.select().from(users).where(eq(users.email, account.email))
    expect(user).toMatchObject({
      role: 'admin',
      status: 'active',
      firstName: account.firstName,
      lastName: account.lastName,
      emailConfirmedAt: null,
      mustChangePassword: false,
      marketingConsent: false,
    })
    const [org] = await ctx.database.db
      .select()
      .from(organizations)
      .where(eq(organizations.id, user?.orgId ?? 0))
    expect(org?.name).toBe(account.organization)
    const [license] = await ctx.database.db
      .select()
      .from(licenses)
      .where(eq(licenses.orgId, user?.orgId ?? 0))
    expect(license).toMatchObject({ tierName: 'Free', maxUsers: 3, isActive: true })
  })

  it('stores the email lower-cased and refuses a second account for it in any case', async () => {
    const account = newAccount('Mixed')
    const upper = { ...registerBody(account), email: account.email.toUpperCase() }
    expect((await post(ctx, paths.auth.register, upper)).body).toEqual(SUCCESS)
    const again = await post(ctx, paths.auth.register, registerBody(account))
    expect(again.body).toEqual(SUCCESS)
    const rows = await ctx.database.db
      .select()
      .from(users)
      .where(eq(sql`lower(${users.email})`, account.email.toLowerCase()))
    expect(rows).toHaveLength(1)
    expect(rows[0]?.email).toBe(account.email.toLowerCase())
  })

  it.each([
    ['not-an-email', AUTH_TEXTS.emailInvalid],
    ['two@@example.com', AUTH_TEXTS.emailInvalid],
    ['user@ab', AUTH_TEXTS.domainTooShort],
    ['user@localhost', AUTH_TEXTS.domainFormat],
    ['user@example.', AUTH_TEXTS.domainFormat],
  ])('validates the email on the server too (spec section 5): %s', async (email, text) => {
    const res = await post(ctx, paths.auth.register, { ...registerBody(newAccount()), email })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: text, msg: text, code: 'validation_error' })
  })

  it.each(['email', 'password', 'organization', 'firstName', 'lastName'])(
    'requires every field but the checkbox: %s',
    async (field) => {
      const body: Record<string, unknown> = registerBody(newAccount())
      delete body[field]
      const res = await post(ctx, paths.auth.register, body)
      expect(res.status).toBe(400)
      expect(res.body.error).toBe(AUTH_TEXTS.fieldsRequired)
      expect(res.body.msg).toBe(AUTH_TEXTS.fieldsRequired)
      const blank = await post(ctx, paths.auth.register, {
        ...registerBody(newAccount()),
        [field]: '  ',
      })
      expect(blank.status).toBe(400)
    },
  )

  it('accepts a registration without the marketing checkbox (it defaults to false)', async () => {
    const account = newAccount()
    const { marketing_consent: _, ...body } = registerBody(account)
    expect((await post(ctx, paths.auth.register, body)).body).toEqual(SUCCESS)
  })

  it('AS3: refuses 7-character, common and over-long passwords; accepts 64+ characters of any composition', async () => {
    const cases: [string, string | null][] = [
      ['Abc1234', AUTH_TEXTS.passwordTooShort],
      ['password123', AUTH_TEXTS.passwordTooCommon],
      ['Password1', AUTH_TEXTS.passwordTooCommon],
      ['qwertyuiop', AUTH_TEXTS.passwordTooCommon],
      ['iloveyou2', AUTH_TEXTS.passwordTooCommon],
      ['x'.repeat(257), AUTH_TEXTS.passwordTooLong],
      ['a'.repeat(64), null],
      ['1'.repeat(70), null],
      ['plain lowercase words only but long enough to be a real passphrase ok', null],
    ]
    for (const [password, text] of cases) {
      const res = await post(ctx, paths.auth.register, { ...registerBody(newAccount()), password })
      if (text === null) {
        expect(res.status, password).toBe(200)
      } else {
        expect(res.status, password).toBe(400)
        expect(res.body).toEqual({ error: text, msg: text, code: 'invalid_password' })
      }
    }
  })

  it('LT6: a registered address answers exactly the same and gets no new mail', async () => {
    const { account, token } = await registerAndMail()
    expect((await post(ctx, paths.auth.confirmEmail, { uuid: token })).status).toBe(200)
    const before = smtp.to(account.email).length
    const again = await post(ctx, paths.auth.register, {
      ...registerBody(account),
      password: 'Some-other-password-1',
      organization: 'Hijack Ltd',
    })
    expect(again.status).toBe(200)
    expect(again.body).toEqual(SUCCESS)
    await ctx.mailer.idle()
    expect(smtp.to(account.email)).toHaveLength(before)
    // nothing changed: the original password still signs in
    expect((await login(ctx, account.email, account.password)).status).toBe(200)
    expect((await login(ctx, account.email, 'Some-other-password-1')).status).toBe(401)
  })

  it('an unconfirmed owner registering again gets a fresh confirmation link; the old one dies', async () => {
    const { account, token: first } = await registerAndMail()
    expect((await post(ctx, paths.auth.register, registerBody(account))).body).toEqual(SUCCESS)
    await ctx.mailer.idle()
    const second = tokenOf(
      await smtp.waitFor(account.email, { subject: /confirm/i, nth: 2 }),
      '/confirm_email',
    )
    expect(second.token).not.toBe(first)
    expect((await post(ctx, paths.auth.confirmEmail, { uuid: first })).status).toBe(400)
    expect((await post(ctx, paths.auth.confirmEmail, { uuid: second.token })).status).toBe(200)
  })

  it('TI4: role, org_id, emailVerified and other extra fields are ignored', async () => {
    const { account } = await registerAndMail()
    const [victim] = await ctx.database.db
      .select()
      .from(users)
      .where(eq(users.email, account.email))
    const attacker = newAccount('attacker')
    const res = await post(ctx, paths.auth.register, {
      ...registerBody(attacker),
      role: 'member',
      org_id: victim?.orgId,
      orgId: victim?.orgId,
      organization_id: victim?.orgId,
      emailVerified: true,
      email_confirmed_at: new Date().toISOString(),
      status: 'disabled',
      licenseTier: 'Enterprise',
      must_change_password: true,
    })
    expect(res.body).toEqual(SUCCESS)
    const [user] = await ctx.database.db.select().from(users).where(eq(users.email, attacker.email))
    expect(user?.orgId).not.toBe(victim?.orgId)
    expect(user).toMatchObject({
      role: 'admin',
      status: 'active',
      emailConfirmedAt: null,
      mustChangePassword: false,
    })
    const [license] = await ctx.database.db
      .select()
      .from(licenses)
      .where(eq(licenses.orgId, user?.orgId ?? 0))
    expect(license?.tierName).toBe('Free')
  })

  it('LT7: with Host: evil.test the mailed link still uses PUBLIC_URL', async () => {
    const account = newAccount('host')
    const res = await ctx.app.request(apiPath(paths.auth.register), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        host: 'evil.test',
        'x-forwarded-host': 'evil.test',
        'x-forwarded-proto': 'https',
        origin: 'https://evil.test',
      },
      body: JSON.stringify(registerBody(account)),
    })
    expect(res.status).toBe(200)
    await ctx.mailer.idle()
    const mail = await smtp.waitFor(account.email)
    expect(mail.text).not.toContain('evil.test')
    expect(mail.html).not.toContain('evil.test')
    expect(tokenOf(mail, '/confirm_email').url.origin).toBe(TEST_PUBLIC_URL)
  })

  it('confirm_email consumes the link, confirms the address and signs the user in', async () => {
    const { account, token } = await registerAndMail()
    const res = await post(ctx, paths.auth.confirmEmail, { uuid: token })
    expect(res.status).toBe(200)
    const body = confirmEmailResponseSchema.parse(res.body)
    expect(body.user.email).toBe(account.email)
    expect(res.body.user).toMatchObject({
      first_name: account.firstName,
      last_name: account.lastName,
      role: 'admin',
    })
    const claims = decodeJwt(body.access)
    expect(claims.user).toMatchObject({ email: account.email, role: 'admin' })
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(7200)
    expect((await get(ctx, paths.account.profile, body.access)).status).toBe(200)
    expect((await login(ctx, account.email, account.password)).status).toBe(200)
  })

  it("LT1: a used, unknown or blank confirmation link answers 400 with the spec's text", async () => {
    const { token } = await registerAndMail()
    expect((await post(ctx, paths.auth.confirmEmail, { uuid: token })).status).toBe(200)
    // issue 39: the link opened again, for an address now confirmed, says so (and signs no one in)
    const again = await post(ctx, paths.auth.confirmEmail, { uuid: token })
    expect(again.status).toBe(400)
    expect(again.body).toEqual({
      error: AUTH_TEXTS.emailAlreadyConfirmed,
      msg: AUTH_TEXTS.emailAlreadyConfirmed,
      code: 'already_confirmed',
    })
    for (const uuid of ['no-such-token', '00000000-0000-0000-0000-000000000000']) {
      const res = await post(ctx, paths.auth.confirmEmail, { uuid })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({
        error: AUTH_TEXTS.confirmEmailFailed,
        msg: AUTH_TEXTS.confirmEmailFailed,
        code: 'invalid_token',
      })
    }
    expect((await post(ctx, paths.auth.confirmEmail, { uuid: '' })).status).toBe(400)
  })

  it('LT1: two concurrent confirmations of one link give one success', async () => {
    const { token } = await registerAndMail()
    const results = await Promise.all([
      post(ctx, paths.auth.confirmEmail, { uuid: token }),
      post(ctx, paths.auth.confirmEmail, { uuid: token }),
      post(ctx, paths.auth.confirmEmail, { uuid: token }),
    ])
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400])
  })

  it('LT9: a GET or HEAD on the confirmation call never consumes the link', async () => {
    const { token } = await registerAndMail()
    for (const method of ['GET', 'HEAD']) {
      const res = await ctx.app.request(
        `${apiPath(paths.auth.confirmEmail)}?uuid=${encodeURIComponent(token)}`,
        { method },
      )
      expect(res.status).toBeGreaterThanOrEqual(400)
    }
    const page = await ctx.app.request(`/confirm_email?uuid=${encodeURIComponent(token)}`)
    expect(page.status).toBe(404) // no SPA in this app; the point is that nothing was consumed
    const [link] = await ctx.database.db
      .select({ usedAt: linkTokens.usedAt })
      .from(linkTokens)
      .where(eq(linkTokens.purpose, 'confirm_email'))
      .orderBy(sql`${linkTokens.id} desc`)
      .limit(1)
    expect(link?.usedAt).toBeNull()
    expect((await post(ctx, paths.auth.confirmEmail, { uuid: token })).status).toBe(200)
  })

  it('DU3: a failure after the first insert leaves no organisation, user or link behind', async () => {
    const { db } = ctx.database
    await db.execute(sql`
      create function fail_license() returns trigger language plpgsql as $$
      begin raise exception 'injected fault'; end $$`)
    await db.execute(
      sql`create trigger fail_license before insert on licenses for each row execute function fail_license()`,
    )
    try {
      const count = async () => {
        const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(organizations)
        return row?.n ?? 0
      }
      const before = await count()
      const account = newAccount('fault')
      const res = await post(ctx, paths.auth.register, registerBody(account))
      expect(res.status).toBe(500)
      expect(await count()).toBe(before)
      expect(await db.select().from(users).where(eq(users.email, account.email))).toHaveLength(0)
      await ctx.mailer.idle()
      expect(smtp.to(account.email)).toHaveLength(0)
    } finally {
      await db.execute(sql`drop trigger fail_license on licenses`)
      await db.execute(sql`drop function fail_license`)
    }
  })
})

describe('LT2: confirmation links expire after 24 hours (injected clock)', () => {
  const { clock, ctx, smtp } = withMailAppOnClock()

  async function freshLink() {
    const account = newAccount()
    await post(ctx, paths.auth.register, registerBody(account))
    await ctx.mailer.idle()
    return tokenOf(await smtp.waitFor(account.email), '/confirm_email').token
  }

  it('LT2: works just before 24 h and fails just after', async () => {
    const early = await freshLink()
    const late = await freshLink()
    clock.advance(DAY - 1000)
    expect((await post(ctx, paths.auth.confirmEmail, { uuid: early })).status).toBe(200)
    clock.advance(2000)
    const res = await post(ctx, paths.auth.confirmEmail, { uuid: late })
    expect(res.status).toBe(400)
    expect(res.body.error).toBe(AUTH_TEXTS.confirmEmailFailed)
  })
})
