import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect } from 'vitest'
import { apiPath, paths } from '../../../contract/paths.ts'
import { cookieBrowser } from '../../support/browser-cookies.ts'
import { startDns, type TestDns } from '../../support/dns-server.ts'
import { browse, type IdpAccount, startIdp, type TestIdp } from '../../support/oidc-idp.ts'
import {
  IDP_CERT,
  idpMetadata,
  type ResponseOptions,
  readRequest,
  samlResponse,
} from '../../support/saml-idp.ts'
import { type MailCapture, startSmtpCapture } from '../../support/smtp.ts'
import { insertUser, post, signIn, type TestApp } from '../auth/helpers.ts'
import { createTestApp, lateBound, TEST_PUBLIC_URL, type TestAppOptions } from '../support.ts'

/**
 * The identity surface in one place for the hardening tests: a loopback OpenID Connect provider
 * playing Google and Entra, a SAML IdP whose metadata is also served by address, a DNS server
 * for domain proofs, SMTP capture, and browsers that keep their cookies.
 */

export const ENTRA = { client_id: 'quire-entra', client_secret: 'entra-client-secret-of-quire' }
export const GOOGLE = { client_id: 'quire-google', client_secret: 'google-client-secret-of-quire' }
export const SAML_CALLBACK = `${TEST_PUBLIC_URL}${apiPath(paths.sso.callback('microsoft_saml'))}`
export const SAML_AUDIENCE = `${TEST_PUBLIC_URL}/api/v1/admin/sso/saml/`
const callbackOf = (provider: string) =>
  `${TEST_PUBLIC_URL}${apiPath(paths.sso.callback(provider as 'google'))}`

export interface World {
  ctx: TestApp
  idp: TestIdp
  rival: TestIdp
  dns: TestDns
  smtp: MailCapture
  /** The metadata the loopback metadata address serves. */
  metadata: { xml: string; url: string }
}

export function identityWorld(options: TestAppOptions = {}) {
  let world: World | undefined
  let metadataServer: ReturnType<typeof createServer> | undefined
  beforeAll(async () => {
    const clients = [
      { ...ENTRA, redirect_uris: [callbackOf('microsoft_oidc')] },
      {
        ...GOOGLE,
        redirect_uris: [`${TEST_PUBLIC_URL}/auth/social/google/callback`, callbackOf('google')],
      },
    ]
    const idp = await startIdp(clients)
    const rival = await startIdp(clients)
    const dns = await startDns()
    const smtp = await startSmtpCapture()
    const metadata = { xml: idpMetadata(IDP_CERT), url: '' }
    metadataServer = createServer((_req, res) => {
      res.setHeader('content-type', 'application/samlmetadata+xml')
      res.end(metadata.xml)
    })
    await new Promise<void>((resolve) => metadataServer?.listen(0, '127.0.0.1', resolve))
    const { port } = metadataServer.address() as AddressInfo
    metadata.url = `http://127.0.0.1:${port}/metadata.xml`
    const ctx = await createTestApp({
      urlFetchAllow: [idp.hostPort, rival.hostPort, `127.0.0.1:${port}`],
      google: {
        issuer: idp.issuer,
        clientId: GOOGLE.client_id,
        clientSecret: GOOGLE.client_secret,
      },
      dnsResolver: dns.server,
      smtp,
      ...options,
    })
    world = { ctx: ctx as TestApp, idp, rival, dns, smtp, metadata }
  })
  afterAll(async () => {
    await world?.ctx.close()
    await world?.idp.close()
    await world?.rival.close()
    await world?.dns.close()
    await world?.smtp.close()
    await new Promise((resolve) => metadataServer?.close(resolve))
  })
  return lateBound(() => world, 'the identity world')
}

let counter = 0
export const uniqueDomain = (stem = 'corp') => {
  counter += 1
  return `${stem}-${Date.now().toString(36)}-${counter}.test`
}

export type DomainState = 'none' | 'mailbox' | 'dns'

/** An organisation with an admin at `domain`, holding it as asked (straight into the database). */
export async function organisation(w: World, domain: string, state: DomainState = 'dns') {
  const admin = await insertUser(w.ctx.database, {
    role: 'admin',
    email: `admin-${++counter}@${domain}`,
  })
  if (state !== 'none')
    await w.ctx.database.pool.query(
      `insert into organization_domains (domain, org_id, added_by, dns_verified_at)
       values ($1, $2, $3, $4)`,
      [domain, admin.orgId, admin.user.id, state === 'dns' ? new Date() : null],
    )
  return { ...admin, domain, token: (await signIn(w.ctx, admin.email)).access }
}

export const oidcSettings = (w: World, domains: string[], extra: object = {}) => ({
  enabled: true,
  provider: 'microsoft_oidc',
  issuer: w.idp.issuer,
  client_id: ENTRA.client_id,
  client_secret: ENTRA.client_secret,
  domains,
  enforce_sso: false,
  jit_provisioning: false,
  ...extra,
})
export const googleSettings = (domains: string[], extra: object = {}) => ({
  enabled: true,
  provider: 'google',
  domains,
  enforce_sso: false,
  jit_provisioning: false,
  ...extra,
})
export const samlSettings = (domains: string[], extra: object = {}) => ({
  enabled: true,
  provider: 'microsoft_saml',
  metadata_xml: idpMetadata(),
  domains,
  enforce_sso: false,
  jit_provisioning: false,
  ...extra,
})

/** A provider the identity tests configure: Entra by OpenID Connect or SAML, or Google. */
export type IdentityProvider = 'microsoft_oidc' | 'microsoft_saml' | 'google'

/** The settings of `provider` for `domains`, from its own builder above. */
export function settingsFor(
  w: World,
  provider: IdentityProvider,
  domains: string[],
  extra: object = {},
) {
  if (provider === 'microsoft_oidc') return oidcSettings(w, domains, extra)
  if (provider === 'microsoft_saml') return samlSettings(domains, extra)
  return googleSettings(domains, extra)
}

/** Saves an organisation's sign-in settings as its admin; the save must succeed. */
export async function saveSettings(w: World, org: { token: string }, settings: object) {
  const res = await post(w.ctx, paths.sso.settingsUpdate, settings, org.token)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
}

/** A browser (its own cookies) with the sign-in paths a person can take. */
export function person(w: World) {
  const browser = cookieBrowser(() => w.ctx.app)
  const messageOf = (location: string) => new URL(location).searchParams.get('message')

  async function start(provider: string, email: string) {
    const res = await browser.request(
      `${apiPath(paths.sso.login(provider as 'google'))}?email=${encodeURIComponent(email)}`,
    )
    return { status: res.status, location: res.headers.get('location') ?? '' }
  }

  /** The provider's return at Quire's callback (code and state), or the refusal's message. */
  async function throughOidc(provider: string, email: string, account: IdpAccount, via = w.idp) {
    const started = await start(provider, email)
    if (started.status !== 302) return { refused: `status ${started.status}` }
    if (started.location.startsWith(`${TEST_PUBLIC_URL}/login`))
      return { refused: messageOf(started.location) }
    via.signInAs(account)
    return { returned: await browse(started.location, TEST_PUBLIC_URL) }
  }

  /** Opens a provider's return in this browser; the /auth/callback address or the refusal. */
  async function finish(returned: URL) {
    const res = await browser.request(`${returned.pathname}${returned.search}`)
    expect(res.status).toBe(302)
    return new URL(res.headers.get('location') ?? '')
  }

  async function exchange(callback: URL) {
    if (callback.pathname !== '/auth/callback')
      return { status: 0, message: callback.searchParams.get('message'), email: null }
    const res = await browser.post(paths.sso.exchange, { code: callback.searchParams.get('code') })
    return {
      status: res.status,
      message: null,
      email: (res.body?.user_email as string | undefined) ?? null,
      access: res.body?.access as string | undefined,
    }
  }

  /** A whole OIDC sign-in: who it signs in as (the email), or why not. */
  async function oidc(provider: string, email: string, account: IdpAccount) {
    const through = await throughOidc(provider, email, account)
    if (!through.returned) return { email: null, message: through.refused ?? null }
    return exchange(await finish(through.returned))
  }

  async function samlStart(email: string) {
    const started = await start('microsoft_saml', email)
    if (!started.location.includes('SAMLRequest')) return { refused: messageOf(started.location) }
    return { request: readRequest(started.location) }
  }

  /** Posts a response as the IdP's auto-submitted form does (cross-site: no cookie comes with it). */
  async function samlPost(response: string, relayState: string) {
    const res = await w.ctx.app.request(apiPath(paths.sso.callback('microsoft_saml')), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ SAMLResponse: response, RelayState: relayState }).toString(),
    })
    return new URL(res.headers.get('location') ?? '')
  }

  /** A whole SAML sign-in with a response the IdP signs as `options` say. */
  async function saml(email: string, options: Partial<ResponseOptions> = {}) {
    const started = await samlStart(email)
    if (!started.request) return { email: null, message: started.refused ?? null }
    const response = samlResponse({
      inResponseTo: started.request.id,
      destination: SAML_CALLBACK,
      audience: SAML_AUDIENCE,
      nameId: email,
      ...options,
    })
    return exchange(await samlPost(response, started.request.relayState))
  }

  /** Google sign-in ('Continue with Google'): who it signs in as, or the refusal's status. */
  async function google(account: IdpAccount) {
    const started = await browser.get(paths.auth.googleStart)
    if (started.status !== 200) return { status: started.status, email: null }
    w.idp.signInAs(account)
    const back = await browse(
      started.body.authorization_url,
      `${TEST_PUBLIC_URL}/auth/social/google/callback`,
    )
    const done = await browser.get(
      `${paths.auth.googleCallback}?code=${encodeURIComponent(back.searchParams.get('code') ?? '')}&state=${encodeURIComponent(back.searchParams.get('state') ?? '')}`,
    )
    return {
      status: done.status,
      email: (done.body?.user?.email as string | undefined) ?? null,
      code: done.body?.code as string | undefined,
    }
  }

  async function password(email: string, secret: string) {
    const res = await browser.post(paths.auth.login, { email, password: secret })
    return { status: res.status, code: res.body?.code as string | undefined }
  }

  async function discover(email: string) {
    const res = await browser.post(paths.sso.discover, { email })
    return res.body as { sso_enabled: boolean; result?: { provider: string; organization: string } }
  }

  return {
    browser,
    start,
    throughOidc,
    finish,
    exchange,
    oidc,
    samlStart,
    samlPost,
    saml,
    google,
    password,
    discover,
  }
}
