import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { inviteUserResponseSchema } from '../../../contract/auth.ts'
import { AUTH_TEXTS, userLimitText } from '../../../contract/auth-texts.ts'
import { apiPath, paths } from '../../../contract/paths.ts'
import { auditEvents, licenses, linkTokens, users } from '../../../server/db/schema.ts'
import { invalidTokenError, mailedLink } from '../../support/mailed-links.ts'
import { TEST_PUBLIC_URL } from '../support.ts'
import { DAY, insertUser, login, post, signIn, withMailAppOnClock } from './helpers.ts'

const INVALID = invalidTokenError(AUTH_TEXTS.invalidOrExpiredToken)

describe('invites and set-password', () => {
  const { clock, ctx, smtp } = withMailAppOnClock()

  let counter = 0
  const inviteeAddress = () => {
    counter += 1
    return `invitee-${Date.now()}-${counter}@example.com`
  }

  async function adminSession() {
    const admin = await insertUser(ctx.database)
    const session = await signIn(ctx, admin.email, admin.password)
    return { ...admin, access: session.access }
  }

  async function invite(access: string, body: Record<string, unknown>) {
    return post(ctx, paths.users.invite, body, access)
  }

  const inviteLink = (email: string, nth = 1) =>
    mailedLink(ctx, smtp, email, { subject: /invit/i, pathname: '/set-password', nth })

  const setPassword = (uid: string, token: string, new_password = 'My-first-password-42') =>
    post(ctx, paths.auth.setPassword, { uid, token, new_password })

  it('an admin invites a user: an invited row, an audited action, a mailed set-password link', async () => {
    const admin = await adminSession()
    const email = inviteeAddress()
    const res = await invite(admin.access, {
      email,
      first_name: 'Grace',
      last_name: 'Hopper',
      role: 'contributor',
    })
    expect(res.status).toBe(201)
    const body = inviteUserResponseSchema.parse(res.body)
    expect(body.user).toMatchObject({
      email,
      first_name: 'Grace',
      last_name: 'Hopper',
      role: 'contributor',
      status: 'invited',
    })
    const { mail, url, uid } = await inviteLink(email)
    expect(url.origin).toBe(TEST_PUBLIC_URL)
    expect(uid).toBe(String(body.user.id))
    expect(mail.subject).toBe('You are invited to Fixture org on Quire')
    expect(mail.text).toContain('Fix Ture invited you')
    // an invited user cannot sign in before setting a password
    expect((await login(ctx, email, 'anything-at-all')).status).toBe(401)
  })

  it('TI7: the invite is audited with tenant, actor and target, without secrets', async () => {
    const admin = await adminSession()
    const email = inviteeAddress()
    const res = await invite(admin.access, { email })
    const { token } = await inviteLink(email)
    const [event] = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.orgId, admin.orgId), eq(auditEvents.action, 'user.invited')))
    expect(event).toMatchObject({
      orgId: admin.orgId,
      actorId: admin.user.id,
      target: `user:${res.body.user.id}`,
      detail: { role: 'contributor' },
    })
    expect(event?.requestId).toBeTruthy()
    expect(JSON.stringify(event)).not.toContain(token)
  })

  it('TI7: a member calling an admin action gets 403, and the denial is audited', async () => {
    const admin = await adminSession()
    const member = await insertUser(ctx.database, { orgId: admin.orgId, role: 'contributor' })
    const session = await signIn(ctx, member.email, member.password)
    const res = await invite(session.access, { email: inviteeAddress() })
    expect(res.status).toBe(403)
    expect(res.body).toEqual({
      error: AUTH_TEXTS.permissionDenied,
      msg: AUTH_TEXTS.permissionDenied,
      code: 'forbidden',
    })
    const [event] = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.actorId, member.user.id),
          eq(auditEvents.action, 'authorization.denied'),
        ),
      )
    expect(event).toMatchObject({
      orgId: admin.orgId,
      target: 'POST /api/v1/admin/users/invite/',
    })
    expect((await post(ctx, paths.users.invite, { email: inviteeAddress() })).status).toBe(401)
  })

  it('set-password sets the first password once, activates and confirms the user', async () => {
    const admin = await adminSession()
    const email = inviteeAddress()
    await invite(admin.access, { email, first_name: 'Grace' })
    const { uid, token } = await inviteLink(email)
    const res = await setPassword(uid, token, 'Grace-first-password-1')
    expect(res.status).toBe(200)
    // issue 39: the accepted invitation signs the person in (a session of their own)
    expect(res.body).toEqual({
      status: 'success',
      access: expect.any(String),
      refresh: expect.any(String),
    })
    const me = await ctx.app.request(apiPath(paths.account.profile), {
      headers: { Authorization: `Bearer ${(res.body as { access: string }).access}` },
    })
    expect(me.status).toBe(200)
    const [row] = await ctx.database.db.select().from(users).where(eq(users.email, email))
    expect(row).toMatchObject({ status: 'active', orgId: admin.orgId, role: 'contributor' })
    expect(row?.emailConfirmedAt).toBeInstanceOf(Date)
    const session = await signIn(ctx, email, 'Grace-first-password-1')
    expect(session.requires_password_change).toBe(false)
    // LT10: valid once
    const again = await setPassword(uid, token, 'Another-password-2')
    expect(again.status).toBe(400)
    expect(again.body).toEqual(INVALID)
    expect((await login(ctx, email, 'Another-password-2')).status).toBe(401)
  })

  it('LT10: an invite works only for its own uid', async () => {
    const admin = await adminSession()
    const first = inviteeAddress()
    const second = inviteeAddress()
    await invite(admin.access, { email: first })
    await invite(admin.access, { email: second })
    const a = await inviteLink(first)
    const b = await inviteLink(second)
    expect((await setPassword(b.uid, a.token)).status).toBe(400)
    expect((await setPassword(String(admin.user.id), a.token)).status).toBe(400)
    expect((await setPassword('not-a-number', a.token)).status).toBe(400)
    expect((await setPassword(a.uid, a.token)).status).toBe(200)
    expect((await setPassword(b.uid, b.token)).status).toBe(200)
  })

  it('LT10: an invite is bound to its tenant: a user moved to another organisation cannot use it', async () => {
    const admin = await adminSession()
    const other = await insertUser(ctx.database)
    const email = inviteeAddress()
    await invite(admin.access, { email })
    const { uid, token } = await inviteLink(email)
    await ctx.database.db.update(users).set({ orgId: other.orgId }).where(eq(users.email, email))
    expect((await setPassword(uid, token)).status).toBe(400)
  })

  it('LT10: a revoked invite (re-sent, or revoked) is refused', async () => {
    const admin = await adminSession()
    const email = inviteeAddress()
    await invite(admin.access, { email })
    const first = await inviteLink(email)
    // inviting again re-sends: the older link dies
    const again = await invite(admin.access, { email })
    expect(again.status).toBe(201)
    const second = await inviteLink(email, 2)
    expect((await setPassword(first.uid, first.token)).status).toBe(400)
    await ctx.database.db
      .update(linkTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(linkTokens.userId, Number(second.uid)), eq(linkTokens.purpose, 'invite')))
    expect((await setPassword(second.uid, second.token)).status).toBe(400)
  })

  it('invite links last 7 days', async () => {
    const admin = await adminSession()
    const early = inviteeAddress()
    const late = inviteeAddress()
    await invite(admin.access, { email: early })
    await invite(admin.access, { email: late })
    const a = await inviteLink(early)
    const b = await inviteLink(late)
    clock.advance(7 * DAY - 1000)
    expect((await setPassword(a.uid, a.token)).status).toBe(200)
    clock.advance(2000)
    expect((await setPassword(b.uid, b.token)).status).toBe(400)
  })

  it('LT5: after 5 wrong tokens for a uid even the right invite token fails', async () => {
    const admin = await adminSession()
    const email = inviteeAddress()
    await invite(admin.access, { email })
    const { uid, token } = await inviteLink(email)
    for (let i = 0; i < 5; i += 1) expect((await setPassword(uid, `wrong-${i}`)).status).toBe(400)
    expect((await setPassword(uid, token)).status).toBe(400)
  })

  it('set-password applies the password policy', async () => {
    const admin = await adminSession()
    const email = inviteeAddress()
    await invite(admin.access, { email })
    const { uid, token } = await inviteLink(email)
    const res = await setPassword(uid, token, '1234567')
    expect(res.status).toBe(400)
    expect(res.body.error).toBe(AUTH_TEXTS.passwordTooShort)
    expect((await setPassword(uid, token, 'password123')).body.error).toBe(
      AUTH_TEXTS.passwordTooCommon,
    )
    expect((await setPassword(uid, token)).status).toBe(200)
  })

  it('refuses an address already in use (409) and a malformed one (400)', async () => {
    const admin = await adminSession()
    const other = await insertUser(ctx.database)
    for (const email of [admin.email, other.email, other.email.toUpperCase()]) {
      const res = await invite(admin.access, { email })
      expect(res.status, email).toBe(409)
      expect(res.body.error).toBe(AUTH_TEXTS.emailInUse)
    }
    const bad = await invite(admin.access, { email: 'not-an-email' })
    expect(bad.status).toBe(400)
    expect(bad.body.error).toBe(AUTH_TEXTS.emailInvalid)
    expect((await invite(admin.access, { email: inviteeAddress(), role: 'owner' })).status).toBe(
      400,
    )
  })

  it('TI4: extra fields (status, org_id, emailVerified) in an invite are ignored', async () => {
    const admin = await adminSession()
    const other = await insertUser(ctx.database)
    const email = inviteeAddress()
    const res = await invite(admin.access, {
      email,
      status: 'active',
      org_id: other.orgId,
      emailVerified: true,
      email_confirmed_at: new Date().toISOString(),
      password: 'Chosen-by-the-admin-1',
    })
    expect(res.status).toBe(201)
    const [row] = await ctx.database.db.select().from(users).where(eq(users.email, email))
    expect(row).toMatchObject({
      orgId: admin.orgId,
      status: 'invited',
      emailConfirmedAt: null,
      passwordHash: null,
    })
  })

  it('a removed person invited again gets the new invitation’s role, and nothing else of before', async () => {
    const admin = await adminSession()
    const email = inviteeAddress()
    await invite(admin.access, { email, first_name: 'Old', last_name: 'Name', role: 'admin' })
    const first = await inviteLink(email)
    expect((await setPassword(first.uid, first.token, 'Old-admin-password-1')).status).toBe(200)
    const before = await signIn(ctx, email, 'Old-admin-password-1')
    expect((await post(ctx, paths.users.remove(first.uid), {}, admin.access)).status).toBe(200)

    const again = await invite(admin.access, { email, first_name: 'New', role: 'viewer' })
    expect(again.status, JSON.stringify(again.body)).toBe(201)
    expect(again.body.user).toMatchObject({
      role: 'viewer',
      status: 'invited',
      first_name: 'New',
      last_name: '',
    })
    const [row] = await ctx.database.db.select().from(users).where(eq(users.email, email))
    expect(row).toMatchObject({
      role: 'viewer',
      status: 'invited',
      passwordHash: null,
      emailConfirmedAt: null,
      lastLoginAt: null,
      mustChangePassword: false,
      tempPasswordExpiresAt: null,
    })
    // the old password and session are gone
    expect((await login(ctx, email, 'Old-admin-password-1')).status).toBe(401)
    expect(
      (await post(ctx, paths.users.invite, { email: inviteeAddress() }, before.access)).status,
    ).toBe(401)
    const second = await inviteLink(email, 2)
    // the invitation is corrected before it is accepted: the newest one's role holds
    const corrected = await invite(admin.access, { email, first_name: 'New', role: 'approver' })
    expect(corrected.status).toBe(201)
    expect(corrected.body.user).toMatchObject({ role: 'approver', status: 'invited' })
    const third = await inviteLink(email, 3)
    expect((await setPassword(second.uid, second.token, 'New-password-2')).status).toBe(400)
    expect((await setPassword(third.uid, third.token, 'New-password-3')).status).toBe(200)
    const session = await signIn(ctx, email, 'New-password-3')
    const profile = await ctx.app.request(`/api/v1${paths.account.profile}`, {
      headers: { authorization: `Bearer ${session.access}` },
    })
    expect((await profile.json()).user).toMatchObject({ role: 'approver', first_name: 'New' })
    // not an admin any more
    expect((await invite(session.access, { email: inviteeAddress() })).status).toBe(403)
  })

  it('respects max_users: 409 with a clear message when every seat is taken', async () => {
    const admin = await adminSession()
    // the Free tier has 3 seats: the admin and two invitees
    expect((await invite(admin.access, { email: inviteeAddress() })).status).toBe(201)
    expect((await invite(admin.access, { email: inviteeAddress() })).status).toBe(201)
    const full = await invite(admin.access, { email: inviteeAddress() })
    expect(full.status).toBe(409)
    expect(full.body).toEqual({
      error: userLimitText(3),
      msg: userLimitText(3),
      code: 'license_limit',
      detail: { limit: 'max_users', max: 3 },
    })
    expect(full.body.error).toBe(
      'Your license allows 3 users. Remove a user or upgrade your plan to invite more.',
    )
  })

  it('TI6: at N−1 of N seats, 20 parallel invites yield one success', async () => {
    const admin = await adminSession()
    await ctx.database.db
      .update(licenses)
      .set({ maxUsers: 5 })
      .where(eq(licenses.orgId, admin.orgId))
    for (let i = 0; i < 3; i += 1) {
      await insertUser(ctx.database, { orgId: admin.orgId, role: 'contributor' })
    }
    const results = await Promise.all(
      Array.from({ length: 20 }, () => invite(admin.access, { email: inviteeAddress() })),
    )
    const statuses = results.map((r) => r.status)
    expect(statuses.filter((s) => s === 201)).toHaveLength(1)
    expect(statuses.filter((s) => s === 409)).toHaveLength(19)
    const members = await ctx.database.db.select().from(users).where(eq(users.orgId, admin.orgId))
    expect(members).toHaveLength(5)
  })
})
