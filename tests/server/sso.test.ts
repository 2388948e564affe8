import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AUTH_TEXTS } from '../../contract/auth-texts.ts'
import { apiPath, paths } from '../../contract/paths.ts'
import { SSO_TEXTS } from '../../contract/sso.ts'
import { cookieBrowser } from '../support/browser-cookies.ts'
import { browse, type IdpAccount, startIdp, type TestIdp } from '../support/oidc-idp.ts'
import { call, get, insertUser, post, signIn } from './auth/helpers.ts'
import { createTestApp, lateBound, TEST_PUBLIC_URL } from './support.ts'

/**
 * Single sign-on through a real OpenID Connect provider on loopback (oidc-provider playing
 * Microsoft Entra and Google): settings, discovery, the redirect with state, nonce and PKCE, the
 * return, the one-time code, and the refusals (AS9): bad or replayed state, expiry, another
 * provider's response, identities keyed on (issuer, subject), never on email.
 */

const ENTRA = { client_id: 'quire-entra', client_secret: 'entra-client-secret-of-quire' }
const GOOGLE = { client_id: 'quire-google', client_secret: 'google-client-secret-of-quire' }
const callbackOf = (provider: string) =>
  `${TEST_PUBLIC_URL}${apiPath(paths.sso.callback(provider as 'google'))}`

let idp: TestIdp
let rival: TestIdp
let app: Awaited<ReturnType<typeof createTestApp>> | undefined
const ctx = lateBound(() => app, 'the test app')
let clockOffset = 0
/** The browser that starts and finishes the sign-ins (it carries the binding cookie). */
const browser = cookieBrowser(() => ctx.app)

beforeAll(async () => {
  const clients = [
    { ...ENTRA, redirect_uris: [callbackOf('microsoft_oidc')] },
    {
      ...GOOGLE,
      redirect_uris: [`${TEST_PUBLIC_URL}/auth/social/google/callback`, callbackOf('google')],
    },
  ]
  idp = await startIdp(clients)
  rival = await startIdp(clients)
  app = await createTestApp({
    urlFetchAllow: [idp.hostPort, rival.hostPort],
    google: { issuer: idp.issuer, clientId: GOOGLE.client_id, clientSecret: GOOGLE.client_secret },
    now: () => new Date(Date.now() + clockOffset),
  })
})
afterAll(async () => {
  await app?.close()
  await idp?.close()
  await rival?.close()
})

let domainCounter = 0
/** An admin of an organisation that verified a domain of its own (proved by DNS). */
async function organisation() {
  domainCounter += 1
  const domain = `acme-${Date.now().toString(36)}-${domainCounter}.test`
  const admin = await insertUser(ctx.database, { role: 'admin', email: `admin@${domain}` })
  await ctx.database.pool.query(
    `insert into organization_domains (domain, org_id, added_by, dns_verified_at)
     values ($1, $2, $3, now())`,
    [domain, admin.orgId, admin.user.id],
  )
  return { ...admin, domain, token: (await signIn(ctx, admin.email)).access }
}

const entraSettings = (domain: string, extra: object = {}) => ({
  enabled: true,
  provider: 'microsoft_oidc',
  issuer: idp.issuer,
  client_id: ENTRA.client_id,
  client_secret: ENTRA.client_secret,
  domains: [domain],
  enforce_sso: false,
  jit_provisioning: false,
  ...extra,
})

async function request(path: string) {
  const res = await browser.request(path)
  return { status: res.status, location: res.headers.get('location') ?? '' }
}

/** From 'Continue to {organization}' to the provider's return at Quire's callback. */
async function throughProvider(provider: string, email: string, account: IdpAccount, via = idp) {
  via.signInAs(account)
  const started = await request(
    `${apiPath(paths.sso.login(provider as 'google'))}?email=${encodeURIComponent(email)}`,
  )
  expect(started.status).toBe(302)
  return browse(started.location, TEST_PUBLIC_URL)
}

async function finish(returned: URL) {
  const res = await request(`${returned.pathname}${returned.search}`)
  expect(res.status).toBe(302)
  return new URL(res.location)
}

describe('single sign-on settings', () => {
  it('admins set the provider; the secret is sealed and never echoed; others are refused', async () => {
    const org = await organisation()
    const viewer = await insertUser(ctx.database, { role: 'viewer', orgId: org.orgId })
    const saved = await post(ctx, paths.sso.settingsUpdate, entraSettings(org.domain), org.token)
    expect(saved.status, JSON.stringify(saved.body)).toBe(200)
    expect(saved.body.data).toMatchObject({
      enabled: true,
      provider: 'microsoft_oidc',
      issuer: idp.issuer,
      client_id: ENTRA.client_id,
      has_client_secret: true,
      domains: [org.domain],
      redirect_uri: callbackOf('microsoft_oidc'),
    })
    const read = await get(ctx, paths.sso.settings, org.token)
    expect(JSON.stringify(read.body)).not.toContain(ENTRA.client_secret)
    const { rows } = await ctx.database.pool.query(
      'select client_secret from sso_settings where org_id = $1',
      [org.orgId],
    )
    expect(rows[0].client_secret).not.toContain(ENTRA.client_secret)
    const log = await get(ctx, `${paths.account.auditLog}?action=sso.`, org.token)
    expect(log.body.count).toBe(1)
    expect(JSON.stringify(log.body)).not.toContain(ENTRA.client_secret)
    const viewerToken = (await signIn(ctx, viewer.email)).access
    expect((await get(ctx, paths.sso.settings, viewerToken)).status).toBe(403)
    // a domain the organisation has not verified, or an issuer that does not answer
    const foreign = await post(ctx, paths.sso.settingsUpdate, entraSettings('gmail.com'), org.token)
    expect(foreign.status).toBe(400)
    expect(foreign.body.error).toBe(SSO_TEXTS.domainNotVerified.replace('{domain}', 'gmail.com'))
    const deaf = await post(
      ctx,
      paths.sso.settingsUpdate,
      entraSettings(org.domain, { issuer: 'http://127.0.0.1:9/' }),
      org.token,
    )
    expect(deaf.status).toBe(400)
    expect(deaf.body.error).toBe(SSO_TEXTS.discoveryFailed)
    const tested = await post(
      ctx,
      paths.sso.test,
      entraSettings(org.domain, { client_secret: '' }),
      org.token,
    )
    expect(tested.body).toEqual({ ok: true, message: SSO_TEXTS.testOk })
    // issue 30: the test reads the discovery document from the issuer alone, as its text says
    const issuerOnly = await post(
      ctx,
      paths.sso.test,
      entraSettings(org.domain, { client_id: '', client_secret: '' }),
      org.token,
    )
    expect(issuerOnly.status, JSON.stringify(issuerOnly.body)).toBe(200)
    expect(issuerOnly.body).toEqual({
      ok: true,
      message: `${SSO_TEXTS.testOk} ${SSO_TEXTS.testNeedsClient}`,
    })
    const nowhere = await post(
      ctx,
      paths.sso.test,
      entraSettings(org.domain, { issuer: 'http://127.0.0.1:9/', client_id: '' }),
      org.token,
    )
    expect(nowhere.body.error).toBe(SSO_TEXTS.discoveryFailed)
  })
})

describe('single sign-on', () => {
  it('signs a member in through the provider with a one-time code', async () => {
    const org = await organisation()
    const ada = await insertUser(ctx.database, {
      role: 'approver',
      orgId: org.orgId,
      email: `ada@${org.domain}`,
    })
    await post(ctx, paths.sso.settingsUpdate, entraSettings(org.domain), org.token)
    const discovered = await post(ctx, paths.sso.discover, { email: `Ada@${org.domain}` })
    expect(discovered.body).toMatchObject({
      sso_enabled: true,
      result: { provider: 'microsoft_oidc', organization: expect.any(String) },
    })
    expect((await post(ctx, paths.sso.discover, { email: 'someone@elsewhere.test' })).body).toEqual(
      {
        sso_enabled: false,
      },
    )

    const account = {
      sub: 'entra-ada',
      email: ada.email,
      email_verified: true,
      tid: 'tenant-1',
      oid: 'object-ada',
    }
    const returned = await throughProvider('microsoft_oidc', ada.email, account)
    expect(returned.searchParams.get('state')).toBeTruthy()
    const done = await finish(returned)
    expect(done.pathname).toBe('/auth/callback')
    const code = done.searchParams.get('code') as string
    const exchanged = await browser.post(paths.sso.exchange, { code })
    expect(exchanged.status).toBe(200)
    expect(exchanged.body).toMatchObject({
      user_email: ada.email,
      access: expect.any(String),
      refresh: expect.any(String),
    })
    expect((await get(ctx, paths.account.profile, exchanged.body.access)).body.user.email).toBe(
      ada.email,
    )
    // the code works once; the provider's return works once
    expect((await browser.post(paths.sso.exchange, { code })).status).toBe(400)
    expect((await finish(returned)).searchParams.get('message')).toBe('invalid_session')

    // the identity is the key: the same account with another address is still Ada
    const renamed = await throughProvider('microsoft_oidc', ada.email, {
      ...account,
      email: `ada.lovelace@${org.domain}`,
    })
    const again = await browser.post(paths.sso.exchange, {
      code: (await finish(renamed)).searchParams.get('code'),
    })
    expect(again.body.user_email).toBe(ada.email)
  })

  it('refuses a bad state, an expired flow, an unknown person and another provider’s answer', async () => {
    const org = await organisation()
    await post(ctx, paths.sso.settingsUpdate, entraSettings(org.domain), org.token)
    const forged = await request(
      `${apiPath(paths.sso.callback('microsoft_oidc'))}?code=abc&state=forged`,
    )
    expect(new URL(forged.location).searchParams.get('message')).toBe('invalid_state')
    const refused = await request(
      `${apiPath(paths.sso.callback('microsoft_oidc'))}?error=access_denied&state=x`,
    )
    expect(new URL(refused.location).searchParams.get('message')).toBe('provider_error')

    // nobody of that address, and no just-in-time creation: not authorised
    const stranger = await throughProvider('microsoft_oidc', `grace@${org.domain}`, {
      sub: 'entra-grace',
      email: `grace@${org.domain}`,
      email_verified: true,
    })
    expect((await finish(stranger)).searchParams.get('message')).toBe('unauthorized')

    // ten minutes later the flow has expired
    const slow = await throughProvider('microsoft_oidc', `grace@${org.domain}`, {
      sub: 'entra-grace',
    })
    clockOffset = 11 * 60_000
    try {
      expect((await finish(slow)).searchParams.get('message')).toBe('session_expired')
    } finally {
      clockOffset = 0
    }

    // an answer of another provider (the same client registered there) is not this flow's
    const started = await request(
      `${apiPath(paths.sso.login('microsoft_oidc'))}?email=grace@${org.domain}`,
    )
    const state = new URL(started.location).searchParams.get('state') as string
    const other = await throughProvider('microsoft_oidc', `grace@${org.domain}`, { sub: 'x' })
    rival.signInAs({ sub: 'rival' })
    const rivalStart = new URL(started.location.replace(idp.issuer, rival.issuer))
    const rivalReturn = await browse(rivalStart.href, TEST_PUBLIC_URL)
    expect(rivalReturn.searchParams.get('state')).toBe(state)
    expect((await finish(rivalReturn)).searchParams.get('message')).toBe('provider_error')
    expect(other).toBeTruthy()
  })

  it('refuses an ID token for another audience or with another nonce (AS9)', async () => {
    const org = await organisation()
    const ada = await insertUser(ctx.database, {
      role: 'viewer',
      orgId: org.orgId,
      email: `ada@${org.domain}`,
    })
    await post(ctx, paths.sso.settingsUpdate, entraSettings(org.domain), org.token)
    const account = { sub: 'entra-aud', email: ada.email, email_verified: true }
    for (const change of [
      (claims: Record<string, unknown>) => ({ ...claims, aud: 'another-client' }),
      (claims: Record<string, unknown>) => ({ ...claims, nonce: 'another-nonce' }),
      (claims: Record<string, unknown>) => ({ ...claims, iss: 'https://impostor.example' }),
      (claims: Record<string, unknown>) => ({
        ...claims,
        exp: Math.floor(Date.now() / 1000) - 3600,
      }),
    ]) {
      const returned = await throughProvider('microsoft_oidc', ada.email, account)
      idp.tamperNextIdToken(change)
      expect((await finish(returned)).searchParams.get('message')).toBe('provider_error')
    }
    // untouched, the same person signs in
    const fine = await throughProvider('microsoft_oidc', ada.email, account)
    expect((await finish(fine)).pathname).toBe('/auth/callback')
  })

  it('creates a person of the verified domain at the first sign-in when just-in-time is on, within the seats', async () => {
    const org = await organisation()
    await post(
      ctx,
      paths.sso.settingsUpdate,
      entraSettings(org.domain, { jit_provisioning: true }),
      org.token,
    )
    const email = `hopper@${org.domain}`
    const returned = await throughProvider('microsoft_oidc', email, {
      sub: 'entra-hopper',
      email,
      email_verified: true,
      given_name: 'Grace',
      family_name: 'Hopper',
    })
    const exchanged = await browser.post(paths.sso.exchange, {
      code: (await finish(returned)).searchParams.get('code'),
    })
    expect(exchanged.body.user_email).toBe(email)
    const { rows } = await ctx.database.pool.query(
      'select role, status, first_name from users where email = $1',
      [email],
    )
    expect(rows[0]).toEqual({ role: 'contributor', status: 'active', first_name: 'Grace' })
    // an address outside the organisation's domains is never created
    const outsider = await throughProvider('microsoft_oidc', email, {
      sub: 'entra-outsider',
      email: 'eve@elsewhere.test',
      email_verified: true,
    })
    expect((await finish(outsider)).searchParams.get('message')).toBe('unauthorized')
  })

  it('an unknown provider or an organisation without SSO goes back to login with its code', async () => {
    const unknown = await request(`${apiPath('/admin/sso/login/okta/')}?email=a@b.test`)
    expect(new URL(unknown.location).searchParams.get('message')).toBe('invalid_provider')
    const none = await request(`${apiPath(paths.sso.login('microsoft_oidc'))}?email=a@nowhere.test`)
    expect(new URL(none.location).searchParams.get('message')).toBe('sso_not_enabled')
    expect(AUTH_TEXTS).toBeTruthy()
  })
})

describe('Google sign-in', () => {
  it('signs in a member Google vouches for; an unknown account is 403; an old state asks to log in again', async () => {
    const org = await organisation()
    await post(
      ctx,
      paths.sso.settingsUpdate,
      {
        ...entraSettings(org.domain),
        provider: 'google',
        issuer: null,
        client_id: null,
        client_secret: null,
      },
      org.token,
    )
    const member = await insertUser(ctx.database, {
      role: 'viewer',
      orgId: org.orgId,
      email: `lin@${org.domain}`,
    })
    const start = await browser.get(paths.auth.googleStart)
    expect(start.status).toBe(200)
    idp.signInAs({ sub: 'google-lin', email: member.email, email_verified: true, hd: org.domain })
    const back = await browse(
      start.body.authorization_url,
      `${TEST_PUBLIC_URL}/auth/social/google/callback`,
    )
    const query = `?code=${encodeURIComponent(back.searchParams.get('code') as string)}&state=${encodeURIComponent(back.searchParams.get('state') as string)}`
    const done = await browser.get(`${paths.auth.googleCallback}${query}`)
    expect(done.status, JSON.stringify(done.body)).toBe(200)
    expect(done.body.user.email).toBe(member.email)
    const replay = await browser.get(`${paths.auth.googleCallback}${query}`)
    expect(replay.status).toBe(400)
    expect(replay.body.redirect_to_login).toBe(true)

    // a Google account of another hosted domain is not a member
    const second = await browser.get(paths.auth.googleStart)
    idp.signInAs({
      sub: 'google-mallory',
      email: `mallory@${org.domain}`,
      email_verified: true,
      hd: 'evil.test',
    })
    const back2 = await browse(
      second.body.authorization_url,
      `${TEST_PUBLIC_URL}/auth/social/google/callback`,
    )
    const refused = await browser.get(
      `${paths.auth.googleCallback}?code=${encodeURIComponent(back2.searchParams.get('code') as string)}&state=${encodeURIComponent(back2.searchParams.get('state') as string)}`,
    )
    expect(refused.status).toBe(403)
    expect(refused.body.error).toBe(SSO_TEXTS.notAllowed)
    expect((await call(ctx, 'GET', paths.auth.googleCallback)).status).toBe(400)
  })
})

describe('an organisation that requires single sign-on (AS12)', () => {
  it('refuses password sign-in, reset and sign-in links alike, for known and unknown addresses', async () => {
    const org = await organisation()
    const member = await insertUser(ctx.database, {
      role: 'viewer',
      orgId: org.orgId,
      email: `kay@${org.domain}`,
    })
    // before: the password works
    expect(
      (await post(ctx, paths.auth.login, { email: member.email, password: member.password }))
        .status,
    ).toBe(200)
    const linkBefore = await post(ctx, paths.users.sendMagicLink(member.user.id), {}, org.token)
    expect(linkBefore.status).toBe(200)
    const saved = await post(
      ctx,
      paths.sso.settingsUpdate,
      entraSettings(org.domain, { enforce_sso: true }),
      org.token,
    )
    expect(saved.status, JSON.stringify(saved.body)).toBe(200)

    const known = await post(ctx, paths.auth.login, {
      email: member.email,
      password: member.password,
    })
    const unknown = await post(ctx, paths.auth.login, {
      email: `nobody@${org.domain}`,
      password: 'whatever-it-is-42',
    })
    for (const refused of [known, unknown]) {
      expect(refused.status).toBe(403)
      expect(refused.body).toMatchObject({
        error: SSO_TEXTS.ssoRequired,
        redirect_to_google: false,
      })
    }
    const reset = await post(ctx, paths.auth.requestPasswordReset, { email: member.email })
    expect(reset.status).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 200))
    const { rows } = await ctx.database.pool.query(
      `select count(*)::int as n from link_tokens where user_id = $1 and purpose = 'password_reset'`,
      [member.user.id],
    )
    expect(rows[0].n).toBe(0)
    const link = await post(ctx, paths.users.sendMagicLink(member.user.id), {}, org.token)
    expect(link.status).toBe(409)
    expect(link.body.error).toBe(SSO_TEXTS.ssoRequired)
  })
})
