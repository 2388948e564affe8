import { eq } from 'drizzle-orm'
import { decodeJwt, exportSPKI, generateKeyPair, SignJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import { licenseSchema, profileResponseSchema, tokenPairSchema } from '../../../contract/auth.ts'
import { AUTH_TEXTS } from '../../../contract/auth-texts.ts'
import { apiPath, paths } from '../../../contract/paths.ts'
import { hashToken } from '../../../server/auth/tokens.ts'
import { refreshTokens, sessions, users } from '../../../server/db/schema.ts'
import { MAX_LIVE_SESSIONS } from '../../../server/modules/auth/service.ts'
import { TEST_JWT_SECRET, withTestApp } from '../support.ts'
import { call, DAY, get, insertUser, manualClock, post, signIn } from './helpers.ts'

const KEY = new TextEncoder().encode(TEST_JWT_SECRET)
const UNAUTHENTICATED = { error: AUTH_TEXTS.authenticationRequired, code: 'unauthorized' }

describe('access tokens, refresh rotation, sessions', () => {
  const ctx = withTestApp()

  /** A token built like the server's, with any claim or header overridden. */
  async function forge(
    base: string,
    change: {
      header?: Record<string, unknown>
      claims?: Record<string, unknown>
      key?: Uint8Array
    },
  ) {
    const claims = { ...decodeJwt(base), ...change.claims }
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', ...change.header })
      .sign(change.key ?? KEY)
  }

  /** A signed-in session, one token/get issued from it, and one issued from that. */
  async function sessionTree() {
    const { email, password } = await insertUser(ctx.database)
    const session = await signIn(ctx, email, password)
    const issue = async (access: string) =>
      tokenPairSchema.parse((await post(ctx, paths.auth.tokenGet, {}, access)).body)
    const extension = await issue(session.access)
    const nested = await issue(extension.access)
    return { email, password, session, extension, nested }
  }

  it('a well-formed access token carries exp, sub, sid, org and the user object, and works', async () => {
    const { email, password, user } = await insertUser(ctx.database)
    const { access } = await signIn(ctx, email, password)
    const claims = decodeJwt(access)
    expect(claims).toMatchObject({
      iss: 'quire',
      aud: 'quire-api',
      sub: String(user.id),
      org: user.orgId,
      token_use: 'access',
      user: { id: user.id, email, first_name: 'Fix', last_name: 'Ture', role: 'admin' },
    })
    expect(typeof claims.sid).toBe('string')
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(7200)
    // a forge of the same claims with the right key is accepted: the checks below are not vacuous
    expect((await get(ctx, paths.account.profile, await forge(access, {}))).status).toBe(200)
  })

  it('AS4: alg none, HS256 signed with an RSA public key, RS256, wrong key, wrong iss/aud, expired, future nbf and a refresh token all get 401', async () => {
    const { email, password } = await insertUser(ctx.database)
    const { access, refresh } = await signIn(ctx, email, password)
    const now = Math.floor(Date.now() / 1000)
    const { publicKey, privateKey } = await generateKeyPair('RS256')
    const pem = await exportSPKI(publicKey)
    const payload = decodeJwt(access)
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
    const forged: Record<string, string> = {
      'alg none': `${b64({ alg: 'none', typ: 'at+jwt' })}.${b64(payload)}.`,
      'alg none, empty typ': `${b64({ alg: 'none' })}.${b64(payload)}.`,
      'HS256 with the RSA public key as secret': await forge(access, {
        key: new TextEncoder().encode(pem),
      }),
      RS256: await new SignJWT(payload)
        .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt' })
        .sign(privateKey),
      'wrong key': await forge(access, {
        key: new TextEncoder().encode('another-secret-of-32-characters-at-least!!'),
      }),
      'wrong iss': await forge(access, { claims: { iss: 'someone-else' } }),
      'wrong aud': await forge(access, { claims: { aud: 'another-api' } }),
      'no aud': await forge(access, { claims: { aud: undefined } }),
      expired: await forge(access, { claims: { iat: now - 7300, exp: now - 100 } }),
      'future nbf': await forge(access, { claims: { nbf: now + 600 } }),
      'wrong typ': await forge(access, { header: { typ: 'JWT' } }),
      'not an access token': await forge(access, { claims: { token_use: 'refresh' } }),
      'refresh token as bearer': refresh,
      garbage: 'a.b.c',
    }
    for (const [name, token] of Object.entries(forged)) {
      const res = await get(ctx, paths.account.profile, token)
      expect(res.status, name).toBe(401)
      expect(res.body, name).toEqual(UNAUTHENTICATED)
    }
    const missing = await get(ctx, paths.account.profile)
    expect(missing.status).toBe(401)
    expect(missing.body).toEqual(UNAUTHENTICATED)
    const basic = await call(ctx, 'GET', paths.account.profile, {
      headers: { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
    })
    expect(basic.status).toBe(401)
  })

  it('AS4: a token naming another user or organisation than its session is refused', async () => {
    const a = await insertUser(ctx.database)
    const b = await insertUser(ctx.database)
    const { access } = await signIn(ctx, a.email, a.password)
    const asB = await forge(access, { claims: { sub: String(b.user.id) } })
    expect((await get(ctx, paths.account.profile, asB)).status).toBe(401)
    const otherOrg = await forge(access, { claims: { org: b.orgId } })
    expect((await get(ctx, paths.account.profile, otherOrg)).status).toBe(401)
  })

  it('token/refresh rotates: a new pair each time, the new refresh token works', async () => {
    const { email, password } = await insertUser(ctx.database)
    const first = await signIn(ctx, email, password)
    const res = await post(ctx, paths.auth.tokenRefresh, { refresh: first.refresh })
    expect(res.status).toBe(200)
    const pair = tokenPairSchema.parse(res.body)
    expect(pair.refresh).not.toBe(first.refresh)
    expect(decodeJwt(pair.access).sid).toBe(decodeJwt(first.access).sid)
    expect((await get(ctx, paths.account.profile, pair.access)).status).toBe(200)
    const next = await post(ctx, paths.auth.tokenRefresh, { refresh: pair.refresh })
    expect(next.status).toBe(200)
  })

  it('AS5: a reused rotated refresh token gets 401 and revokes its successor', async () => {
    const { email, password } = await insertUser(ctx.database)
    const first = await signIn(ctx, email, password)
    const rotated = await post(ctx, paths.auth.tokenRefresh, { refresh: first.refresh })
    expect(rotated.status).toBe(200)
    // the rotated row points at its successor
    const [old, successor] = await Promise.all(
      [first.refresh, rotated.body.refresh as string].map(async (token) => {
        const [row] = await ctx.database.db
          .select()
          .from(refreshTokens)
          .where(eq(refreshTokens.tokenHash, hashToken(token)))
        return row
      }),
    )
    expect(old?.usedAt).toBeInstanceOf(Date)
    expect(old?.replacedBy).toBe(successor?.id)
    expect(successor?.familyId).toBe(old?.familyId)
    expect(successor?.expiresAt.getTime()).toBe(old?.expiresAt.getTime())
    const replay = await post(ctx, paths.auth.tokenRefresh, { refresh: first.refresh })
    expect(replay.status).toBe(401)
    expect(replay.body).toEqual({ error: AUTH_TEXTS.sessionExpired, code: 'session_expired' })
    // the legitimate holder's successor and its access token are dead too
    expect(
      (await post(ctx, paths.auth.tokenRefresh, { refresh: rotated.body.refresh })).status,
    ).toBe(401)
    expect((await get(ctx, paths.account.profile, rotated.body.access)).status).toBe(401)
    const [session] = await ctx.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, String(decodeJwt(first.access).sid)))
    expect(session?.revokedReason).toBe('refresh_reuse')
    // other sessions of the user are untouched
    expect((await signIn(ctx, email, password)).access).toBeTruthy()
  })

  it('AS5: two concurrent refreshes with one token give at most one success', async () => {
    const { email, password } = await insertUser(ctx.database)
    const { refresh } = await signIn(ctx, email, password)
    const results = await Promise.all([
      post(ctx, paths.auth.tokenRefresh, { refresh }),
      post(ctx, paths.auth.tokenRefresh, { refresh }),
    ])
    expect(results.filter((r) => r.status === 200).length).toBeLessThanOrEqual(1)
  })

  it('an unknown or blank refresh token gets 401 or 400', async () => {
    expect((await post(ctx, paths.auth.tokenRefresh, { refresh: 'nope' })).status).toBe(401)
    expect((await post(ctx, paths.auth.tokenRefresh, { refresh: '' })).status).toBe(400)
    expect((await post(ctx, paths.auth.tokenRefresh, {})).status).toBe(400)
  })

  it('token/get gives an authenticated user a fresh pair in a session of its own', async () => {
    const { email, password } = await insertUser(ctx.database)
    const session = await signIn(ctx, email, password)
    const res = await post(ctx, paths.auth.tokenGet, {}, session.access)
    expect(res.status).toBe(200)
    const pair = tokenPairSchema.parse(res.body)
    expect(decodeJwt(pair.access).sid).not.toBe(decodeJwt(session.access).sid)
    // both sessions rotate independently
    expect((await post(ctx, paths.auth.tokenRefresh, { refresh: pair.refresh })).status).toBe(200)
    expect((await post(ctx, paths.auth.tokenRefresh, { refresh: session.refresh })).status).toBe(
      200,
    )
    expect((await post(ctx, paths.auth.tokenGet, {})).status).toBe(401)
  })

  it('AS6: after logout the refresh token gets 401 and the access token fails at once', async () => {
    const { email, password } = await insertUser(ctx.database)
    const session = await signIn(ctx, email, password)
    const other = await signIn(ctx, email, password)
    const res = await post(ctx, paths.auth.logout, { refresh: session.refresh }, session.access)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ status: 'success' })
    expect((await get(ctx, paths.account.profile, session.access)).status).toBe(401)
    expect((await post(ctx, paths.auth.tokenRefresh, { refresh: session.refresh })).status).toBe(
      401,
    )
    // another device's session stays signed in
    expect((await get(ctx, paths.account.profile, other.access)).status).toBe(200)
  })

  it('AS6: logout ends the sessions token/get issued from it, to any depth (issue 14 fix 5)', async () => {
    const { email, password, session, extension, nested } = await sessionTree()
    const other = await signIn(ctx, email, password)
    expect((await get(ctx, paths.account.profile, nested.access)).status).toBe(200)
    const res = await post(ctx, paths.auth.logout, { refresh: session.refresh }, session.access)
    expect(res.status).toBe(200)
    for (const pair of [session, extension, nested]) {
      expect((await get(ctx, paths.account.profile, pair.access)).status).toBe(401)
      expect((await post(ctx, paths.auth.tokenRefresh, { refresh: pair.refresh })).status).toBe(401)
    }
    // a session that was not issued from it stays signed in
    expect((await get(ctx, paths.account.profile, other.access)).status).toBe(200)
    // logging out of the extension's session ends it and what it issued, not its parent
    const parent = await signIn(ctx, email, password)
    const child = tokenPairSchema.parse(
      (await post(ctx, paths.auth.tokenGet, {}, parent.access)).body,
    )
    expect((await post(ctx, paths.auth.logout, {}, child.access)).status).toBe(200)
    expect((await get(ctx, paths.account.profile, child.access)).status).toBe(401)
    expect((await get(ctx, paths.account.profile, parent.access)).status).toBe(200)
  })

  it('AS5: a replayed refresh token ends its session and every session token/get issued from it', async () => {
    const { session, extension, nested } = await sessionTree()
    const rotated = await post(ctx, paths.auth.tokenRefresh, { refresh: session.refresh })
    expect(rotated.status).toBe(200)
    // the replay: the family is presumed stolen, and so is what it issued
    expect((await post(ctx, paths.auth.tokenRefresh, { refresh: session.refresh })).status).toBe(
      401,
    )
    for (const pair of [extension, nested]) {
      expect((await get(ctx, paths.account.profile, pair.access)).status).toBe(401)
      expect((await post(ctx, paths.auth.tokenRefresh, { refresh: pair.refresh })).status).toBe(401)
    }
    const tree = await ctx.database.pool.query<{ reason: string }>(
      'select revoked_reason as reason from sessions where id = any($1::uuid[])',
      [[extension.access, nested.access].map((access) => decodeJwt(access).sid)],
    )
    expect(tree.rows.map((row) => row.reason)).toEqual(['refresh_reuse', 'refresh_reuse'])
  })

  it('AS6: a session whose parent or grandparent ended is refused, however that one ended', async () => {
    const { session, extension, nested } = await sessionTree()
    // ended by a path that knows nothing of children (defence in depth)
    await ctx.database.db
      .update(sessions)
      .set({ revokedAt: new Date(), revokedReason: 'test' })
      .where(eq(sessions.id, String(decodeJwt(session.access).sid)))
    for (const pair of [extension, nested]) {
      expect((await get(ctx, paths.account.profile, pair.access)).status).toBe(401)
      expect((await post(ctx, paths.auth.tokenRefresh, { refresh: pair.refresh })).status).toBe(401)
    }
  })

  it('caps live sessions per user: the 51st sign-in ends the oldest (issue 14)', async () => {
    const { email, password } = await insertUser(ctx.database)
    const first = await signIn(ctx, email, password)
    for (let i = 1; i < MAX_LIVE_SESSIONS; i += 1) await signIn(ctx, email, password)
    expect((await get(ctx, paths.account.profile, first.access)).status).toBe(200)
    const latest = await signIn(ctx, email, password)
    expect((await get(ctx, paths.account.profile, first.access)).status).toBe(401)
    expect((await post(ctx, paths.auth.tokenRefresh, { refresh: first.refresh })).status).toBe(401)
    expect((await get(ctx, paths.account.profile, latest.access)).status).toBe(200)
    const [user] = await ctx.database.db.select().from(users).where(eq(users.email, email))
    const live = await ctx.database.pool.query(
      'select count(*)::int as n from sessions where user_id = $1 and revoked_at is null',
      [user?.id],
    )
    expect(live.rows[0].n).toBe(MAX_LIVE_SESSIONS)
  }, 60_000)

  it('AS6: logout with only the refresh token (access expired) ends that session', async () => {
    const { email, password } = await insertUser(ctx.database)
    const session = await signIn(ctx, email, password)
    const res = await post(ctx, paths.auth.logout, { refresh: session.refresh })
    expect(res.status).toBe(200)
    expect((await get(ctx, paths.account.profile, session.access)).status).toBe(401)
    // a bearer token alone, without a body, names the session too
    const other = await signIn(ctx, email, password)
    const bare = await ctx.app.request(apiPath(paths.auth.logout), {
      method: 'POST',
      headers: { authorization: `Bearer ${other.access}` },
    })
    expect(bare.status).toBe(200)
    expect((await get(ctx, paths.account.profile, other.access)).status).toBe(401)
    // an unknown refresh token is a harmless no-op; no credential at all is a 401
    expect((await post(ctx, paths.auth.logout, { refresh: 'unknown' })).status).toBe(200)
    expect((await post(ctx, paths.auth.logout, {})).status).toBe(401)
  })

  it('AS6: a disabled or removed user is signed out at once; a role downgrade takes effect at once', async () => {
    for (const status of ['disabled', 'removed'] as const) {
      const { email, password, user } = await insertUser(ctx.database)
      const session = await signIn(ctx, email, password)
      await ctx.database.db.update(users).set({ status }).where(eq(users.id, user.id))
      expect((await get(ctx, paths.account.profile, session.access)).status, status).toBe(401)
      expect((await post(ctx, paths.auth.tokenRefresh, { refresh: session.refresh })).status).toBe(
        401,
      )
    }
    const { email, password, user } = await insertUser(ctx.database)
    const session = await signIn(ctx, email, password)
    await ctx.database.db.update(users).set({ role: 'contributor' }).where(eq(users.id, user.id))
    const invite = await post(
      ctx,
      paths.users.invite,
      { email: 'someone-new@example.com' },
      session.access,
    )
    expect(invite.status).toBe(403)
    expect((await get(ctx, paths.account.profile, session.access)).body.user.role).toBe(
      'contributor',
    )
  })

  it('GET admin/profile/ answers the user and organisation', async () => {
    const { email, password, user, orgId } = await insertUser(ctx.database)
    const { access } = await signIn(ctx, email, password)
    const res = await get(ctx, paths.account.profile, access)
    expect(res.status).toBe(200)
    const body = profileResponseSchema.parse(res.body)
    expect(body).toEqual({
      user: { id: user.id, email, first_name: 'Fix', last_name: 'Ture', role: 'admin' },
      organization: { id: orgId, name: 'Fixture org' },
    })
  })

  it('GET admin/get_license/ answers the Free tier of spec section 3', async () => {
    const { email, password } = await insertUser(ctx.database)
    const { access } = await signIn(ctx, email, password)
    const res = await get(ctx, paths.account.license, access)
    expect(res.status).toBe(200)
    const body = licenseSchema.parse(res.body)
    expect(body.tier).toEqual({
      name: 'Free',
      max_users: 3,
      max_repository: 50,
      max_questionnaire: 5,
      max_answers: 500,
      is_evaluation: false,
      multi_language: false,
    })
    expect(body.is_active).toBe(true)
    expect(body.expiration_date).toBeNull()
    expect(Number.isNaN(Date.parse(body.created_at))).toBe(false)
    expect((await get(ctx, paths.account.license)).status).toBe(401)
  })

  it('TI3: an organisation id in a header, the query or the body never changes the tenant', async () => {
    const a = await insertUser(ctx.database)
    const b = await insertUser(ctx.database)
    const { access } = await signIn(ctx, a.email, a.password)
    const variants = [
      { headers: { 'x-org-id': String(b.orgId), 'x-tenant-id': String(b.orgId) } },
      { query: `?org_id=${b.orgId}&organization=${b.orgId}&tenant=${b.orgId}` },
    ]
    for (const variant of variants) {
      const res = await ctx.app.request(`${apiPath(paths.account.profile)}${variant.query ?? ''}`, {
        headers: { authorization: `Bearer ${access}`, ...variant.headers },
      })
      const body = profileResponseSchema.parse(await res.json())
      expect(body.organization.id).toBe(a.orgId)
    }
    const invite = await call(ctx, 'POST', `${paths.users.invite}?org_id=${b.orgId}`, {
      token: access,
      headers: { 'x-org-id': String(b.orgId) },
      body: { email: 'tenant-probe@example.com', org_id: b.orgId, orgId: b.orgId },
    })
    expect(invite.status).toBe(201)
    const [invited] = await ctx.database.db
      .select()
      .from(users)
      .where(eq(users.email, 'tenant-probe@example.com'))
    expect(invited?.orgId).toBe(a.orgId)
  })

  it('POST admin/sso/discover/ answers sso_enabled false for everyone', async () => {
    const { email } = await insertUser(ctx.database)
    for (const address of [email, 'nobody@example.com']) {
      const res = await post(ctx, paths.sso.discover, { email: address })
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ sso_enabled: false })
    }
    expect((await post(ctx, paths.sso.discover, {})).status).toBe(400)
  })
})

describe('AS5: refresh families have an absolute lifetime of 14 days (injected clock)', () => {
  const clock = manualClock()
  const ctx = withTestApp({ now: clock.now })

  it('AS5: rotating keeps working inside 14 days, and nothing works after them', async () => {
    const { email, password } = await insertUser(ctx.database)
    let { refresh } = await signIn(ctx, email, password)
    const started = await signIn(ctx, email, password)
    for (let day = 0; day < 13; day += 1) {
      clock.advance(DAY)
      const res = await post(ctx, paths.auth.tokenRefresh, { refresh })
      expect(res.status, `day ${day + 1}`).toBe(200)
      refresh = res.body.refresh
    }
    clock.advance(DAY + 1000)
    expect((await post(ctx, paths.auth.tokenRefresh, { refresh })).status).toBe(401)
    // the access token of the session fails too, even one signed just now would
    expect((await get(ctx, paths.account.profile, started.access)).status).toBe(401)
  })

  it('AS4: an access token is refused after its 2 hours', async () => {
    const { email, password } = await insertUser(ctx.database)
    const { access } = await signIn(ctx, email, password)
    clock.advance(2 * 3600_000 - 1000)
    expect((await get(ctx, paths.account.profile, access)).status).toBe(200)
    clock.advance(2000)
    expect((await get(ctx, paths.account.profile, access)).status).toBe(401)
  })
})
