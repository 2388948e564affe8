import { describe, expect, it } from 'vitest'
import { apiPath, paths } from '../../contract/paths.ts'
import { cookieBrowser } from '../support/browser-cookies.ts'
import {
  idpMetadata,
  type ResponseOptions,
  readRequest,
  samlResponse,
  wrappedResponses,
} from '../support/saml-idp.ts'
import { get, insertUser, post, signIn } from './auth/helpers.ts'
import { TEST_PUBLIC_URL, withTestApp } from './support.ts'

/**
 * SAML sign-in (microsoft_saml) with responses signed by a test IdP's key through node-saml's own
 * signing, and the refusals of AS11: unsigned or foreign-signed responses, signature wrapping,
 * a wrong Destination or Audience, an expired assertion, an unknown InResponseTo and replays.
 */
const ctx = withTestApp()
const CALLBACK = `${TEST_PUBLIC_URL}${apiPath(paths.sso.callback('microsoft_saml'))}`
const AUDIENCE = `${TEST_PUBLIC_URL}/api/v1/admin/sso/saml/`
/** The browser that starts the sign-in and exchanges its code (the IdP's POST carries no cookie). */
const browser = cookieBrowser(() => ctx.app)

let counter = 0
async function organisation() {
  counter += 1
  const domain = `saml-${Date.now().toString(36)}-${counter}.test`
  const admin = await insertUser(ctx.database, { role: 'admin', email: `admin@${domain}` })
  await ctx.database.pool.query(
    `insert into organization_domains (domain, org_id, added_by, dns_verified_at)
     values ($1, $2, $3, now())`,
    [domain, admin.orgId, admin.user.id],
  )
  const token = (await signIn(ctx, admin.email)).access
  const saved = await post(
    ctx,
    paths.sso.settingsUpdate,
    { enabled: true, provider: 'microsoft_saml', metadata_xml: idpMetadata(), domains: [domain] },
    token,
  )
  expect(saved.status, JSON.stringify(saved.body)).toBe(200)
  const ada = await insertUser(ctx.database, {
    role: 'approver',
    orgId: admin.orgId,
    email: `ada@${domain}`,
  })
  return { domain, ada, token }
}

async function startFlow(email: string) {
  const res = await browser.request(
    `${apiPath(paths.sso.login('microsoft_saml'))}?email=${encodeURIComponent(email)}`,
  )
  expect(res.status).toBe(302)
  return readRequest(res.headers.get('location') ?? '')
}

/** Posts a response as the IdP's auto-submitted form does; where the browser goes next. */
async function postResponse(samlResponseB64: string, relayState: string) {
  const res = await ctx.app.request(apiPath(paths.sso.callback('microsoft_saml')), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ SAMLResponse: samlResponseB64, RelayState: relayState }).toString(),
  })
  expect(res.status).toBe(302)
  return new URL(res.headers.get('location') ?? '')
}

const answer = (request: { id: string }, email: string, extra: Partial<ResponseOptions> = {}) => ({
  inResponseTo: request.id,
  destination: CALLBACK,
  audience: AUDIENCE,
  nameId: email,
  ...extra,
})

describe('SAML sign-in', () => {
  it('signs a member in with a signed assertion, once', async () => {
    const { ada } = await organisation()
    const request = await startFlow(ada.email)
    expect(request.acs).toBe(CALLBACK)
    expect(request.issuer).toBe(AUDIENCE)
    const response = samlResponse(answer(request, ada.email))
    const done = await postResponse(response, request.relayState)
    expect(done.pathname).toBe('/auth/callback')
    const exchanged = await browser.post(paths.sso.exchange, {
      code: done.searchParams.get('code'),
    })
    expect(exchanged.body.user_email).toBe(ada.email)
    expect((await get(ctx, paths.account.profile, exchanged.body.access)).body.user.email).toBe(
      ada.email,
    )
    // the same response again: its flow and its request are spent
    expect((await postResponse(response, request.relayState)).searchParams.get('message')).toBe(
      'invalid_session',
    )
    const fresh = await startFlow(ada.email)
    expect((await postResponse(response, fresh.relayState)).searchParams.get('message')).toBe(
      'provider_error',
    )
  })

  it('refuses unsigned, foreign-signed and wrapped responses, and wrong Destination, Audience, time or request', async () => {
    const { ada, domain } = await organisation()
    const evil = `mallory@${domain}`
    // a real member: a wrapped assertion for her would sign in as her if it were accepted
    await insertUser(ctx.database, { role: 'admin', orgId: ada.orgId, email: evil })
    const cases: [string, (request: { id: string }) => string][] = [
      ['unsigned', (r) => samlResponse(answer(r, ada.email, { signWith: 'none' }))],
      [
        'signed by another key',
        (r) => samlResponse(answer(r, ada.email, { signWith: 'attacker' })),
      ],
      [
        'wrong Destination',
        (r) => samlResponse(answer(r, ada.email, { destination: 'https://evil.example/acs' })),
      ],
      [
        'wrong Audience',
        (r) => samlResponse(answer(r, ada.email, { audience: 'https://evil.example/sp' })),
      ],
      ['expired', (r) => samlResponse(answer(r, ada.email, { validMinutes: -5 }))],
      ['unknown InResponseTo', (r) => samlResponse(answer({ id: `_${r.id}-other` }, ada.email))],
      ...wrappedResponses(answer({ id: 'x' }, ada.email), evil).map(
        (_, index) =>
          [
            `signature wrapping ${index + 1}`,
            (r: { id: string }) => wrappedResponses(answer(r, ada.email), evil)[index] as string,
          ] as [string, (request: { id: string }) => string],
      ),
    ]
    for (const [name, make] of cases) {
      const request = await startFlow(ada.email)
      const back = await postResponse(make(request), request.relayState)
      expect(back.pathname, name).toBe('/login')
      expect(back.searchParams.get('message'), name).toBe('provider_error')
    }
    // a response without a flow of Quire's
    const orphan = await postResponse(
      samlResponse(answer({ id: '_x' }, ada.email)),
      'forged-relay-state',
    )
    expect(orphan.searchParams.get('message')).toBe('invalid_state')
  })

  it('refuses metadata without a signing certificate', async () => {
    const { token, domain } = await organisation()
    const bad = await post(
      ctx,
      paths.sso.settingsUpdate,
      {
        enabled: true,
        provider: 'microsoft_saml',
        metadata_xml: idpMetadata().replace(/<KeyDescriptor[\s\S]*<\/KeyDescriptor>/, ''),
        domains: [domain],
      },
      token,
    )
    expect(bad.status).toBe(400)
    expect(bad.body.error).toMatch(/no signing certificate/)
  })
})
