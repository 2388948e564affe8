import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { AUTH_TEXTS } from '../../../contract/auth-texts.ts'
import { paths } from '../../../contract/paths.ts'
import { adminUserListSchema, USER_TEXTS } from '../../../contract/users.ts'
import { auditEvents, users } from '../../../server/db/schema.ts'
import {
  call,
  get,
  HOUR,
  insertUser,
  login,
  MINUTE,
  newAccount,
  post,
  registerBody,
  signIn,
  tokenOf,
  withMailAppOnClock,
} from './helpers.ts'

/**
 * An organisation's people, as its admins manage them (under /admin/users/): the list, names,
 * roles, removal, one-time sign-in links and temporary passwords. The organisation always keeps an
 * admin; another organisation's people are a 404; every change is audited without secrets.
 */

describe('people of the organisation', () => {
  const { clock, ctx, smtp } = withMailAppOnClock()

  async function organisation() {
    const admin = await insertUser(ctx.database, { role: 'admin' })
    const token = (await signIn(ctx, admin.email)).access
    return { ...admin, token }
  }
  const person = async (orgId: number, role: 'admin' | 'approver' | 'contributor' | 'viewer') => {
    const fixture = await insertUser(ctx.database, { orgId, role })
    return { ...fixture, token: (await signIn(ctx, fixture.email)).access }
  }

  it('lists people with search, role and status filters and pages; never another organisation’s', async () => {
    const admin = await organisation()
    const viewer = await person(admin.orgId, 'viewer')
    await person(admin.orgId, 'contributor')
    await insertUser(ctx.database, { orgId: admin.orgId, role: 'contributor', status: 'invited' })
    const stranger = await organisation()

    const all = adminUserListSchema.parse((await get(ctx, paths.users.list, admin.token)).body)
    expect(all.count).toBe(4)
    expect(all.results.map((u) => u.email)).not.toContain(stranger.email)
    const viewers = await get(ctx, `${paths.users.list}?role=viewer`, admin.token)
    expect(viewers.body.results.map((u: { email: string }) => u.email)).toEqual([viewer.email])
    const invited = await get(ctx, `${paths.users.list}?status=invited`, admin.token)
    expect(invited.body.count).toBe(1)
    const found = await get(
      ctx,
      `${paths.users.list}?q=${encodeURIComponent(viewer.email.slice(0, 14))}`,
      admin.token,
    )
    expect(found.body.results.map((u: { id: number }) => u.id)).toEqual([viewer.user.id])
    const page = await get(ctx, `${paths.users.list}?page=2&page_size=3`, admin.token)
    expect(page.body).toMatchObject({ count: 4 })
    expect(page.body.results).toHaveLength(1)
    const bad = await get(ctx, `${paths.users.list}?role=owner`, admin.token)
    expect(bad.status).toBe(400)
    // not an admin: 403
    expect((await get(ctx, paths.users.list, viewer.token)).status).toBe(403)
  })

  it('renames and changes roles with before and after in the audit log; keeps an admin (409)', async () => {
    const admin = await organisation()
    const other = await person(admin.orgId, 'contributor')
    const renamed = await post(
      ctx,
      paths.users.update(other.user.id),
      { first_name: '  Ada ', last_name: 'Lovelace' },
      admin.token,
    )
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200)
    expect(renamed.body).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace' })
    const promoted = await post(
      ctx,
      paths.users.role(other.user.id),
      { role: 'approver' },
      admin.token,
    )
    expect(promoted.body.role).toBe('approver')
    // the role holds from the next call on, whatever the token says
    expect((await get(ctx, paths.account.profile, other.token)).body.user.role).toBe('approver')
    const [event] = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.orgId, admin.orgId), eq(auditEvents.action, 'user.role_changed')))
    expect(event).toMatchObject({
      actorId: admin.user.id,
      target: `user:${other.user.id}`,
      detail: { before: { role: 'contributor' }, after: { role: 'approver' } },
    })

    // the only admin cannot step down
    const alone = await post(ctx, paths.users.role(admin.user.id), { role: 'viewer' }, admin.token)
    expect(alone.status).toBe(409)
    expect(alone.body.error).toBe(USER_TEXTS.lastAdmin)
    // with a second admin, one may; then the other is the last
    await post(ctx, paths.users.role(other.user.id), { role: 'admin' }, admin.token)
    expect(
      (await post(ctx, paths.users.role(admin.user.id), { role: 'approver' }, admin.token)).status,
    ).toBe(200)
    expect(
      (await post(ctx, paths.users.role(other.user.id), { role: 'viewer' }, other.token)).status,
    ).toBe(409)
    expect(
      (await post(ctx, paths.users.role(other.user.id), { role: 'superuser' }, other.token)).status,
    ).toBe(400)
  })

  it('two admins demoting each other at once leave one admin (never a deadlock)', async () => {
    // several rounds: the race is decided by timing. Each round ends with one 200; the other
    // request is refused, 409 when both reached the last-admin check, 403 when the winner had
    // already committed before the loser's role was read (the loser is no longer an admin)
    for (let round = 0; round < 6; round++) {
      const admin = await organisation()
      const second = await person(admin.orgId, 'admin')
      const results = await Promise.all([
        post(ctx, paths.users.role(second.user.id), { role: 'viewer' }, admin.token),
        post(ctx, paths.users.role(admin.user.id), { role: 'viewer' }, second.token),
      ])
      const [won, lost] = results.sort((a, b) => a.status - b.status)
      expect(won?.status).toBe(200)
      expect([403, 409]).toContain(lost?.status)
      expect(lost?.body.error).toBe(
        lost?.status === 409 ? USER_TEXTS.lastAdmin : AUTH_TEXTS.permissionDenied,
      )
      const admins = await ctx.database.db
        .select()
        .from(users)
        .where(and(eq(users.orgId, admin.orgId), eq(users.role, 'admin')))
      expect(admins).toHaveLength(1)
    }
    // the 403 branch, in order: demoted first, the loser's request is no longer an admin's
    const admin = await organisation()
    const second = await person(admin.orgId, 'admin')
    expect(
      (await post(ctx, paths.users.role(second.user.id), { role: 'viewer' }, admin.token)).status,
    ).toBe(200)
    const late = await post(ctx, paths.users.role(admin.user.id), { role: 'viewer' }, second.token)
    expect([late.status, late.body.error]).toEqual([403, AUTH_TEXTS.permissionDenied])
  })

  it('removes a person: their open session ends at once, and the last admin stays', async () => {
    const admin = await organisation()
    const leaver = await person(admin.orgId, 'approver')
    expect((await get(ctx, paths.files.list, leaver.token)).status).toBe(200)
    const removed = await post(ctx, paths.users.remove(leaver.user.id), {}, admin.token)
    expect(removed.status).toBe(200)
    expect((await get(ctx, paths.files.list, leaver.token)).status).toBe(401)
    expect((await login(ctx, leaver.email, leaver.password)).status).toBe(401)
    // listed only when removed people are asked for
    expect(
      (await get(ctx, paths.users.list, admin.token)).body.results.map((u: { id: number }) => u.id),
    ).not.toContain(leaver.user.id)
    expect((await get(ctx, `${paths.users.list}?status=removed`, admin.token)).body.count).toBe(1)
    // removing again, or someone of another organisation: 404
    expect((await post(ctx, paths.users.remove(leaver.user.id), {}, admin.token)).status).toBe(404)
    const stranger = await organisation()
    expect((await post(ctx, paths.users.remove(stranger.user.id), {}, admin.token)).status).toBe(
      404,
    )
    expect((await get(ctx, paths.files.list, stranger.token)).status).toBe(200)
    const last = await post(ctx, paths.users.remove(admin.user.id), {}, admin.token)
    expect(last.status).toBe(409)
    expect(last.body.error).toBe(USER_TEXTS.lastAdmin)

    // invited back: a fresh start, without the old password
    const back = await post(
      ctx,
      paths.users.invite,
      { email: leaver.email, role: 'viewer' },
      admin.token,
    )
    expect(back.status, JSON.stringify(back.body)).toBe(201)
    expect(back.body.user).toMatchObject({ id: leaver.user.id, status: 'invited', role: 'viewer' })
    expect((await login(ctx, leaver.email, leaver.password)).status).toBe(401)
    await ctx.mailer.idle()
    const { uid, token } = tokenOf(
      await smtp.waitFor(leaver.email, { subject: /invit/i }),
      '/set-password',
    )
    expect(
      (await post(ctx, paths.auth.setPassword, { uid, token, new_password: 'Back-again-42' }))
        .status,
    ).toBe(200)
    expect((await login(ctx, leaver.email, 'Back-again-42')).status).toBe(200)
  })

  it('sends a one-time sign-in link that works once, within 10 minutes, by POST only', async () => {
    const admin = await organisation()
    const other = await person(admin.orgId, 'contributor')
    const sent = await post(ctx, paths.users.sendMagicLink(other.user.id), {}, admin.token)
    expect(sent.status).toBe(200)
    expect(sent.body.detail).toBe(USER_TEXTS.magicLinkSent)
    await ctx.mailer.idle()
    const mail = await smtp.waitFor(other.email, { subject: /sign-in link/i })
    const { uid, token } = tokenOf(mail, '/magic-link')
    // a GET consumes nothing (there is no such call)
    expect(
      (await call(ctx, 'GET', `${paths.auth.magicLink}?uid=${uid}&token=${token}`)).status,
    ).toBe(404)
    const signedIn = await post(ctx, paths.auth.magicLink, { uid, token })
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200)
    expect((await get(ctx, paths.account.profile, signedIn.body.access)).body.user.email).toBe(
      other.email,
    )
    const again = await post(ctx, paths.auth.magicLink, { uid, token })
    expect(again.status).toBe(400)
    expect(again.body.error).toBe(USER_TEXTS.invalidMagicLink)

    await post(ctx, paths.users.sendMagicLink(other.user.id), {}, admin.token)
    await ctx.mailer.idle()
    const late = tokenOf(
      await smtp.waitFor(other.email, { subject: /sign-in link/i, nth: 2 }),
      '/magic-link',
    )
    clock.advance(10 * MINUTE + 1000)
    expect((await post(ctx, paths.auth.magicLink, late)).status).toBe(400)
    // not for someone of another organisation
    const stranger = await organisation()
    expect(
      (await post(ctx, paths.users.sendMagicLink(stranger.user.id), {}, admin.token)).status,
    ).toBe(404)
  })

  it('sets a temporary password shown once: one sign-in within 24 h, which must change it', async () => {
    const admin = await organisation()
    const other = await person(admin.orgId, 'contributor')
    const res = await post(
      ctx,
      paths.users.generateTemporaryPassword(other.user.id),
      {},
      admin.token,
    )
    expect(res.status).toBe(200)
    const password = res.body.temporary_password as string
    expect(password).toMatch(/^(?=.*[A-Za-z])(?=.*\d)[A-Za-z\d]{16}$/)
    // the person's sessions ended; the audit log never holds the password
    expect((await get(ctx, paths.files.list, other.token)).status).toBe(401)
    const events = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'user.temporary_password'))
    expect(JSON.stringify(events)).not.toContain(password)
    const first = await login(ctx, other.email, password)
    expect(first.status).toBe(200)
    expect(first.body.requires_password_change).toBe(true)
    expect((await get(ctx, paths.files.list, first.body.access)).body.error).toBe(
      AUTH_TEXTS.passwordChangeRequired,
    )
    // one sign-in only
    expect((await login(ctx, other.email, password)).status).toBe(401)

    const again = await post(
      ctx,
      paths.users.generateTemporaryPassword(other.user.id),
      {},
      admin.token,
    )
    clock.advance(24 * HOUR + MINUTE)
    expect((await login(ctx, other.email, again.body.temporary_password)).status).toBe(401)
  })

  it('someone at a verified domain asks to join: confirms the address, waits, is approved or rejected', async () => {
    const domain = `join-${Date.now()}.test`
    const admin = await insertUser(ctx.database, { role: 'admin', email: `boss@${domain}` })
    const adminToken = (await signIn(ctx, admin.email)).access
    expect(
      (
        await post(
          ctx,
          paths.account.updateOrganization,
          { verified_domains: [domain] },
          adminToken,
        )
      ).status,
    ).toBe(200)
    const org = (await get(ctx, paths.account.organization, adminToken)).body.name as string

    async function ask(name: string) {
      const account = { ...newAccount(name), email: `${name}@${domain}` }
      const registered = await post(ctx, paths.auth.register, registerBody(account))
      // the same answer as any registration (LT6)
      expect(registered.body).toEqual({ status: 'success', msg: AUTH_TEXTS.registrationSent })
      await ctx.mailer.idle()
      const { token } = tokenOf(
        await smtp.waitFor(account.email, { subject: /confirm/i }),
        '/confirm_email',
      )
      const confirmed = await post(ctx, paths.auth.confirmEmail, { uuid: token })
      expect(confirmed.status).toBe(403)
      expect(confirmed.body).toMatchObject({
        code: 'pending_approval',
        error: AUTH_TEXTS.joinRequested.replace('{organization}', org),
      })
      return account
    }

    const ada = await ask('ada')
    await ctx.mailer.idle()
    const notice = await smtp.waitFor(admin.email, { subject: /asks to join/i })
    expect(notice.text).toContain(ada.email)
    const waiting = await login(ctx, ada.email, ada.password)
    expect(waiting.status).toBe(403)
    expect(waiting.body.error).toBe(AUTH_TEXTS.joinPending.replace('{organization}', org))
    // a wrong password says nothing of the request
    expect((await login(ctx, ada.email, 'Not-her-password-1')).status).toBe(401)

    const pending = await get(ctx, `${paths.users.list}?status=pending`, adminToken)
    expect(pending.body.results.map((u: { email: string }) => u.email)).toEqual([ada.email])
    const adaId = pending.body.results[0].id as number
    const approved = await post(ctx, paths.users.approve(adaId), {}, adminToken)
    expect(approved.status, JSON.stringify(approved.body)).toBe(200)
    expect(approved.body).toMatchObject({ status: 'active', role: 'contributor' })
    await ctx.mailer.idle()
    await smtp.waitFor(ada.email, { subject: /can now sign in/i })
    expect((await login(ctx, ada.email, ada.password)).status).toBe(200)
    expect((await post(ctx, paths.users.approve(adaId), {}, adminToken)).status).toBe(409)

    const bob = await ask('bob')
    const bobId = (await get(ctx, `${paths.users.list}?status=pending`, adminToken)).body.results[0]
      .id as number
    expect((await post(ctx, paths.users.reject(bobId), {}, adminToken)).status).toBe(200)
    expect((await login(ctx, bob.email, bob.password)).status).toBe(401)
    const events = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.orgId, admin.orgId))
    expect(events.map((e) => e.action)).toEqual(
      expect.arrayContaining(['user.join_requested', 'user.join_approved', 'user.join_rejected']),
    )
  })

  it('refuses to approve a request to join whose address was never confirmed (409), changing nothing', async () => {
    const domain = `unconfirmed-${Date.now()}.test`
    const admin = await insertUser(ctx.database, { role: 'admin', email: `boss@${domain}` })
    const adminToken = (await signIn(ctx, admin.email)).access
    const verified = await post(
      ctx,
      paths.account.updateOrganization,
      { verified_domains: [domain] },
      adminToken,
    )
    expect(verified.status).toBe(200)
    const account = { ...newAccount('eve'), email: `eve@${domain}` }
    expect((await post(ctx, paths.auth.register, registerBody(account))).status).toBe(200)
    const [before] = await ctx.database.db
      .select()
      .from(users)
      .where(eq(users.email, account.email))
    expect(before).toMatchObject({ status: 'pending', emailConfirmedAt: null })
    const id = before?.id as number

    const refused = await post(ctx, paths.users.approve(id), {}, adminToken)
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({
      error: USER_TEXTS.emailNotConfirmed,
      code: 'conflict',
    })
    const [after] = await ctx.database.db.select().from(users).where(eq(users.id, id))
    expect(after).toEqual(before)
    const approvals = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.orgId, admin.orgId), eq(auditEvents.action, 'user.join_approved')))
    expect(approvals).toEqual([])
    expect((await login(ctx, account.email, account.password)).status).not.toBe(200)
    // rejecting it stays possible
    expect((await post(ctx, paths.users.reject(id), {}, adminToken)).status).toBe(200)
  })
})
