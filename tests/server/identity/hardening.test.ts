import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ORGANIZATION_TEXTS } from '../../../contract/organization.ts'
import { paths } from '../../../contract/paths.ts'
import { SSO_TEXTS } from '../../../contract/sso.ts'
import { createJobDefinitions, SSO_HOUSEKEEPING_JOB } from '../../../server/jobs/registry.ts'
import { createLogger } from '../../../server/logger.ts'
import {
  METADATA_REREAD_MS,
  metadataFetcher,
  ssoHousekeeping,
} from '../../../server/modules/sso/metadata.ts'
import { createDiskStorage } from '../../../server/storage/index.ts'
import { ATTACKER_CERT, idpMetadata } from '../../support/saml-idp.ts'
import { get, insertUser, post, signIn } from '../auth/helpers.ts'
import { withTestApp } from '../support.ts'
import {
  googleSettings,
  identityWorld,
  oidcSettings,
  organisation,
  person,
  samlSettings,
  uniqueDomain,
} from './world.ts'

/**
 * Issue 26, hardening II: one organisation's sign-in settings never reach another's people. Each
 * test here reproduces a probe of the review that succeeded before its fix.
 */
const w = identityWorld()

const save = async (org: { token: string }, settings: object) => {
  const res = await post(w.ctx, paths.sso.settingsUpdate, settings, org.token)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
}

describe('an identity belongs to the provider configuration that vouched for it (fix 1)', () => {
  it("a SAML response naming another provider's Issuer is refused, and Google sign-in stays the victim's", async () => {
    // the victim's organisation signs in with Google
    const victimOrg = await organisation(w, uniqueDomain('victim'))
    await save(victimOrg, googleSettings([victimOrg.domain]))
    const victim = await insertUser(w.ctx.database, {
      role: 'admin',
      orgId: victimOrg.orgId,
      email: `vic@${victimOrg.domain}`,
    })
    const google = {
      sub: 'google-vic',
      email: victim.email,
      email_verified: true,
      hd: victimOrg.domain,
    }
    // the victim has not signed in with Google yet

    // the attacker's organisation uses SAML; its IdP signs whatever its admin asks
    const attackerOrg = await organisation(w, uniqueDomain('attacker'))
    await save(attackerOrg, samlSettings([attackerOrg.domain]))
    const mallory = await insertUser(w.ctx.database, {
      role: 'viewer',
      orgId: attackerOrg.orgId,
      email: `mallory@${attackerOrg.domain}`,
    })
    const squat = await person(w).saml(mallory.email, {
      issuer: w.idp.issuer,
      nameId: google.sub,
      email: mallory.email,
    })
    expect(squat.message).toBe('provider_error')

    // the victim signs in with Google: the victim, in the victim's organisation (before the fix:
    // Mallory, in the attacker's organisation)
    expect((await person(w).google(google)).email).toBe(victim.email)
    const { rows } = await w.ctx.database.pool.query(
      'select org_id from user_identities where subject = $1',
      [google.sub],
    )
    expect(rows.map((r) => Number(r.org_id))).toEqual([victimOrg.orgId])
  })

  it("an IdP whose entity id is another provider's issuer claims nobody of that provider", async () => {
    // the victim's organisation signs in with OpenID Connect at the loopback provider's issuer
    const victimOrg = await organisation(w, uniqueDomain('victim'))
    await save(victimOrg, oidcSettings(w, [victimOrg.domain]))
    const victim = await insertUser(w.ctx.database, {
      role: 'approver',
      orgId: victimOrg.orgId,
      email: `ana@${victimOrg.domain}`,
    })
    const account = { sub: 'oidc-ana', email: victim.email, email_verified: true }

    // the attacker's SAML metadata names that issuer as its own entity id (its admin wrote it)
    const attackerOrg = await organisation(w, uniqueDomain('attacker'))
    await save(attackerOrg, {
      ...samlSettings([attackerOrg.domain]),
      metadata_xml: idpMetadata(undefined, w.idp.issuer),
    })
    const mallory = await insertUser(w.ctx.database, {
      role: 'viewer',
      orgId: attackerOrg.orgId,
      email: `mallory@${attackerOrg.domain}`,
    })
    const claimed = await person(w).saml(mallory.email, {
      issuer: w.idp.issuer,
      nameId: account.sub,
      email: mallory.email,
    })
    // accepted for the attacker's own member only
    expect(claimed.email).toBe(mallory.email)
    // the victim signs in afterwards (before the fix: refused, the identity being Mallory's), and
    // Google sign-in with that subject is nobody's
    expect((await person(w).oidc('microsoft_oidc', victim.email, account)).email).toBe(victim.email)
    expect((await person(w).google({ ...account, sub: account.sub })).status).toBe(403)
    const { rows } = await w.ctx.database.pool.query(
      'select org_id, provider from user_identities where subject = $1 order by org_id',
      [account.sub],
    )
    expect(rows.map((r) => [Number(r.org_id), r.provider])).toEqual([
      [victimOrg.orgId, 'microsoft_oidc'],
      [attackerOrg.orgId, 'microsoft_saml'],
    ])
  })
})

describe('sign-in is bound to the browser that started it (fix 2, login CSRF)', () => {
  it('a provider return opened in another browser fails; the starting browser completes it', async () => {
    const org = await organisation(w, uniqueDomain())
    await save(org, oidcSettings(w, [org.domain]))
    const eve = await insertUser(w.ctx.database, {
      role: 'viewer',
      orgId: org.orgId,
      email: `eve@${org.domain}`,
    })
    const attacker = person(w)
    const through = await attacker.throughOidc('microsoft_oidc', eve.email, {
      sub: 'csrf-eve',
      email: eve.email,
      email_verified: true,
    })
    const returned = through.returned as URL
    // the binding cookie: HttpOnly, SameSite=Lax, only for the API
    const started = await attacker.browser.request(
      `/api/v1${paths.sso.login('microsoft_oidc')}?email=${encodeURIComponent(eve.email)}`,
    )
    const cookie = started.headers.getSetCookie().join('\n')
    expect(cookie).toMatch(/quire_sso=[A-Za-z0-9_-]{43}/)
    expect(cookie).toMatch(/HttpOnly/i)
    expect(cookie).toMatch(/SameSite=Lax/i)
    expect(cookie).toMatch(/Path=\/api\//)

    // the victim opens the attacker's return (no cookie, then a cookie of the victim's own)
    const victim = person(w)
    expect((await victim.finish(returned)).searchParams.get('message')).toBe('invalid_session')
    await victim.start('microsoft_oidc', eve.email)
    expect(victim.browser.cookies().get('quire_sso')).toBeTruthy()
    expect((await victim.finish(returned)).searchParams.get('message')).toBe('invalid_session')

    // the attacker's own round trip completes, but its one-time code works only in its browser
    const callback = await attacker.finish(returned)
    expect(callback.pathname).toBe('/auth/callback')
    const stolen = await victim.browser.post(paths.sso.exchange, {
      code: callback.searchParams.get('code'),
    })
    expect(stolen.status).toBe(400)
    expect(stolen.body.error).toBe(SSO_TEXTS.codeInvalid)
    const cookieless = await post(w.ctx, paths.sso.exchange, {
      code: callback.searchParams.get('code'),
    })
    expect(cookieless.status).toBe(400)
    expect((await attacker.exchange(callback)).email).toBe(eve.email)
  })

  it("a SAML response's code and a Google return are bound the same way", async () => {
    const org = await organisation(w, uniqueDomain())
    await save(org, samlSettings([org.domain]))
    const ida = await insertUser(w.ctx.database, {
      role: 'viewer',
      orgId: org.orgId,
      email: `ida@${org.domain}`,
    })
    const attacker = person(w)
    const started = await attacker.samlStart(ida.email)
    const request = started.request as { id: string; relayState: string }
    const { samlResponse } = await import('../../support/saml-idp.ts')
    const { SAML_AUDIENCE, SAML_CALLBACK } = await import('./world.ts')
    const response = samlResponse({
      inResponseTo: request.id,
      destination: SAML_CALLBACK,
      audience: SAML_AUDIENCE,
      nameId: ida.email,
    })
    // the victim's browser posts the attacker's response (an auto-submitting page)
    const victim = person(w)
    const callback = await victim.samlPost(response, request.relayState)
    expect(callback.pathname).toBe('/auth/callback')
    expect((await victim.exchange(callback)).status).toBe(400)
    expect((await attacker.exchange(callback)).email).toBe(ida.email)

    // Google: the attacker's code and state, completed by the victim's page
    const googleOrg = await organisation(w, uniqueDomain())
    await save(googleOrg, googleSettings([googleOrg.domain]))
    const gus = await insertUser(w.ctx.database, {
      role: 'viewer',
      orgId: googleOrg.orgId,
      email: `gus@${googleOrg.domain}`,
    })
    const googleStart = await attacker.browser.get(paths.auth.googleStart)
    w.idp.signInAs({
      sub: 'google-gus',
      email: gus.email,
      email_verified: true,
      hd: googleOrg.domain,
    })
    const { browse } = await import('../../support/oidc-idp.ts')
    const { TEST_PUBLIC_URL } = await import('../support.ts')
    const back = await browse(
      googleStart.body.authorization_url,
      `${TEST_PUBLIC_URL}/auth/social/google/callback`,
    )
    const query = `?code=${encodeURIComponent(back.searchParams.get('code') ?? '')}&state=${encodeURIComponent(back.searchParams.get('state') ?? '')}`
    const forced = await victim.browser.get(`${paths.auth.googleCallback}${query}`)
    expect(forced.status).toBe(400)
    expect(forced.body.redirect_to_login).toBe(true)
    expect(
      (await attacker.browser.get(`${paths.auth.googleCallback}${query}`)).body.user.email,
    ).toBe(gus.email)
  })
})

describe("an organisation's sign-in policy reaches only its own people (fix 3)", () => {
  it("an insider's mailbox-verified copy of the company domain neither locks out nor redirects the company", async () => {
    const domain = uniqueDomain('company')
    // the company registered first, without verifying its domain yet
    const company = await organisation(w, domain, 'none')
    const colleague = await insertUser(w.ctx.database, {
      role: 'viewer',
      orgId: company.orgId,
      email: `colleague@${domain}`,
    })
    // an employee registers an organisation of their own and verifies the domain by mailbox
    const insider = await organisation(w, domain, 'mailbox')
    await save(insider, oidcSettings(w, [domain], { enforce_sso: true, jit_provisioning: true }))

    const browser = person(w)
    expect((await browser.password(company.email, company.password)).status).toBe(200)
    expect((await browser.password(colleague.email, colleague.password)).status).toBe(200)
    expect((await browser.discover(colleague.email)).sso_enabled).toBe(false)
    expect((await browser.discover(`newcomer@${domain}`)).sso_enabled).toBe(false)
    const start = await browser.start('microsoft_oidc', `newcomer@${domain}`)
    expect(new URL(start.location).searchParams.get('message')).toBe('sso_not_enabled')

    // the company proves the domain by DNS: it wins, the insider loses it and is told
    const record = await get(
      w.ctx,
      `${paths.account.domainDnsRecord}?domain=${domain}`,
      company.token,
    )
    expect(record.status).toBe(200)
    expect(record.body).toMatchObject({ domain, type: 'TXT', name: domain })
    expect(record.body.value).toMatch(/^quire-verification=[A-Za-z0-9_-]{32}$/)
    const missing = await post(w.ctx, paths.account.domainVerifyDns, { domain }, company.token)
    expect(missing.status).toBe(400)
    expect(missing.body.error).toBe(
      ORGANIZATION_TEXTS.dnsNotFound
        .replace('{value}', record.body.value)
        .replace('{domain}', domain),
    )
    w.dns.publish(domain, ['v=spf1 -all', record.body.value])
    const proved = await post(w.ctx, paths.account.domainVerifyDns, { domain }, company.token)
    expect(proved.status, JSON.stringify(proved.body)).toBe(200)
    expect(proved.body).toMatchObject({
      verified_domains: [domain],
      dns_verified_domains: [domain],
    })
    const insiderOrg = await get(w.ctx, paths.account.organization, insider.token)
    expect(insiderOrg.body.verified_domains).toEqual([])
    expect((await get(w.ctx, paths.sso.settings, insider.token)).body.domains).toEqual([])
    const told = await w.smtp.waitFor(insider.email, { subject: /no longer a verified domain/ })
    expect(told.text).toContain(domain)

    // the insider cannot take it back, even with a record of its own
    const insiderRecord = await get(
      w.ctx,
      `${paths.account.domainDnsRecord}?domain=${domain}`,
      insider.token,
    )
    expect(insiderRecord.body.value).not.toBe(record.body.value)
    w.dns.publish(domain, [record.body.value, insiderRecord.body.value])
    const retake = await post(w.ctx, paths.account.domainVerifyDns, { domain }, insider.token)
    expect(retake.status).toBe(409)
    expect(retake.body.error).toBe(ORGANIZATION_TEXTS.dnsTaken.replace('{domain}', domain))
    // once the company's record is gone, the DNS of today decides
    w.dns.publish(domain, [insiderRecord.body.value])
    const moved = await post(w.ctx, paths.account.domainVerifyDns, { domain }, insider.token)
    expect(moved.status).toBe(200)
    expect(moved.body.dns_verified_domains).toEqual([domain])
    await w.smtp.waitFor(company.email, { subject: /no longer a verified domain/ })
    w.dns.publish(domain, [record.body.value])
    expect(
      (await post(w.ctx, paths.account.domainVerifyDns, { domain }, company.token)).status,
    ).toBe(200)
    const byMailbox = await post(
      w.ctx,
      paths.account.updateOrganization,
      { verified_domains: [domain] },
      insider.token,
    )
    expect(byMailbox.status).toBe(409)
  })

  it('a dropped domain leaves the SSO settings; JIT creation needs the DNS proof; DNS failures are plain', async () => {
    const domain = uniqueDomain()
    const org = await organisation(w, domain, 'mailbox')
    await save(org, oidcSettings(w, [domain], { jit_provisioning: true }))
    // mailbox only: nobody new is created, whatever the provider says
    const newcomer = `new@${domain}`
    const refused = await person(w).start('microsoft_oidc', newcomer)
    expect(new URL(refused.location).searchParams.get('message')).toBe('sso_not_enabled')
    w.dns.publish(domain, [
      (await get(w.ctx, `${paths.account.domainDnsRecord}?domain=${domain}`, org.token)).body.value,
    ])
    expect((await post(w.ctx, paths.account.domainVerifyDns, { domain }, org.token)).status).toBe(
      200,
    )
    const created = await person(w).oidc('microsoft_oidc', newcomer, {
      sub: 'jit-new',
      email: newcomer,
      email_verified: true,
    })
    expect(created.email).toBe(newcomer)

    const dropped = await post(
      w.ctx,
      paths.account.updateOrganization,
      { verified_domains: [] },
      org.token,
    )
    expect(dropped.status).toBe(200)
    expect((await get(w.ctx, paths.sso.settings, org.token)).body.domains).toEqual([])

    const broken = uniqueDomain()
    w.dns.breakName(broken)
    const failed = await post(w.ctx, paths.account.domainVerifyDns, { domain: broken }, org.token)
    expect(failed.status).toBe(502)
    expect(failed.body.error).toBe(ORGANIZATION_TEXTS.dnsUnreachable.replace('{domain}', broken))
    const publicOne = await post(
      w.ctx,
      paths.account.domainVerifyDns,
      { domain: 'gmail.com' },
      org.token,
    )
    expect(publicOne.status).toBe(400)
    const viewer = await insertUser(w.ctx.database, { role: 'viewer', orgId: org.orgId })
    const viewerToken = (await signIn(w.ctx, viewer.email)).access
    expect((await post(w.ctx, paths.account.domainVerifyDns, { domain }, viewerToken)).status).toBe(
      403,
    )
  })
})

describe('Google sign-in never goes around a required provider (fix 5)', () => {
  it('a member whose Google account was linked earlier is refused once SAML is required', async () => {
    const org = await organisation(w, uniqueDomain())
    await save(org, googleSettings([org.domain]))
    const lin = await insertUser(w.ctx.database, {
      role: 'viewer',
      orgId: org.orgId,
      email: `lin@${org.domain}`,
    })
    const account = { sub: 'google-lin-2', email: lin.email, email_verified: true, hd: org.domain }
    expect((await person(w).google(account)).email).toBe(lin.email)
    await save(org, samlSettings([org.domain], { enforce_sso: true }))
    const refused = await person(w).google(account)
    expect(refused.status).toBe(403)
    expect(refused.email).toBeNull()
    // the required provider still signs her in
    expect((await person(w).saml(lin.email)).email).toBe(lin.email)
  })
})

describe('the stored client secret goes only where it was entered for (fix 6)', () => {
  it('another issuer without the secret typed again is refused, for saving and for testing', async () => {
    const org = await organisation(w, uniqueDomain())
    await save(org, oidcSettings(w, [org.domain]))
    const elsewhere = {
      ...oidcSettings(w, [org.domain]),
      issuer: w.rival.issuer,
      client_secret: '',
    }
    for (const path of [paths.sso.settingsUpdate, paths.sso.test]) {
      const res = await post(w.ctx, path, elsewhere, org.token)
      expect(res.status, path).toBe(400)
      expect(res.body.error).toBe(SSO_TEXTS.clientSecretReenter)
    }
    expect((await get(w.ctx, paths.sso.settings, org.token)).body.issuer).toBe(w.idp.issuer)
    // typed again, it moves; the same issuer keeps the stored one
    await save(org, { ...elsewhere, client_secret: ENTRA_SECRET })
    await save(org, { ...elsewhere, client_secret: '', jit_provisioning: true })
    expect((await get(w.ctx, paths.sso.settings, org.token)).body.has_client_secret).toBe(true)
  })
})
const ENTRA_SECRET = 'entra-client-secret-of-quire'

describe('only emails the provider verified, matched on immutable ids (fix 7)', () => {
  it('an unverified email with a tenant id, or a preferred_username, links nobody', async () => {
    const org = await organisation(w, uniqueDomain())
    await save(org, oidcSettings(w, [org.domain]))
    const kim = await insertUser(w.ctx.database, {
      role: 'admin',
      orgId: org.orgId,
      email: `kim@${org.domain}`,
    })
    const unverified = await person(w).oidc('microsoft_oidc', kim.email, {
      sub: 'entra-forged-1',
      tid: 'tenant-x',
      oid: 'object-forged-1',
      email: kim.email,
      email_verified: false,
    })
    expect(unverified.message).toBe('unauthorized')
    const displayName = await person(w).oidc('microsoft_oidc', kim.email, {
      sub: 'entra-forged-2',
      tid: 'tenant-x',
      oid: 'object-forged-2',
      preferred_username: kim.email,
    })
    expect(displayName.message).toBe('unauthorized')
    const { rows } = await w.ctx.database.pool.query(
      'select count(*)::int as n from user_identities where user_id = $1',
      [kim.user.id],
    )
    expect(rows[0].n).toBe(0)
    // the same tenant and object id with a verified address is Kim, and stays Kim by its ids
    const verified = {
      sub: 'entra-kim',
      tid: 'tenant-x',
      oid: 'object-kim',
      email: kim.email,
      email_verified: true,
    }
    expect((await person(w).oidc('microsoft_oidc', kim.email, verified)).email).toBe(kim.email)
    const renamed = { ...verified, sub: 'entra-kim-new-sub', email: `someone@${org.domain}` }
    expect((await person(w).oidc('microsoft_oidc', kim.email, renamed)).email).toBe(kim.email)
  })
})

describe('sign-in starts are limited and their rows expire (fix 8)', () => {
  const limited = withTestApp({ authLimits: { ssoStarts: { limit: 5, windowMs: 60_000 } } })

  it('past the per-address limit a start is 429 with Retry-After and writes nothing', async () => {
    const admin = await insertUser(limited.database, {
      role: 'admin',
      email: `a@${uniqueDomain()}`,
    })
    const domain = admin.email.split('@')[1] as string
    await limited.database.pool.query(
      `insert into organization_domains (domain, org_id, dns_verified_at) values ($1, $2, now())`,
      [domain, admin.orgId],
    )
    const token = (await signIn(limited, admin.email)).access
    const saved = await post(limited, paths.sso.settingsUpdate, samlSettings([domain]), token)
    expect(saved.status).toBe(200)
    const statuses: number[] = []
    let retryAfter: string | null = null
    for (let i = 0; i < 8; i++) {
      const res = await limited.app.request(
        `/api/v1${paths.sso.login('microsoft_saml')}?email=anyone${i}@${domain}`,
      )
      statuses.push(res.status)
      if (res.status === 429) retryAfter = res.headers.get('retry-after')
    }
    expect(statuses).toEqual([302, 302, 302, 302, 302, 429, 429, 429])
    expect(Number(retryAfter)).toBeGreaterThan(0)
    const google = await limited.app.request(`/api/v1${paths.auth.googleStart}`)
    expect(google.status).toBe(429)
    const { rows } = await limited.database.pool.query(
      `select count(*)::int as n from sso_flows where state_hash not like 'saml:%'`,
    )
    expect(rows[0].n).toBe(5)
  })

  it('the scheduled job purges expired flows and codes, and is scheduled', async () => {
    const { pool } = limited.database
    const user = await insertUser(limited.database)
    const old = new Date(Date.now() - 2 * 60 * 60_000)
    const fresh = new Date(Date.now() + 10 * 60_000)
    for (const [key, expires] of [
      ['old-flow', old],
      ['fresh-flow', fresh],
    ] as const)
      await pool.query(
        `insert into sso_flows (state_hash, provider, code_verifier, nonce, expires_at)
         values ($1, 'google', 'v', 'n', $2)`,
        [key, expires],
      )
    for (const [key, expires] of [
      ['old-code', old],
      ['fresh-code', fresh],
    ] as const)
      await pool.query(
        'insert into sso_codes (code_hash, user_id, expires_at) values ($1, $2, $3)',
        [key, user.user.id, expires],
      )
    const done = await ssoHousekeeping(limited.database, async () => '')
    expect(done).toMatchObject({ flows: 1, codes: 1 })
    const { rows } = await pool.query(
      `select state_hash as key from sso_flows where state_hash like '%-flow'
       union all select code_hash from sso_codes where code_hash like '%-code'`,
    )
    expect(rows.map((r) => r.key).sort()).toEqual(['fresh-code', 'fresh-flow'])
    const job = createJobDefinitions({
      database: limited.database,
      storage: createDiskStorage(mkdtempSync(path.join(tmpdir(), 'quire-jobs-'))),
      logger: createLogger('silent'),
      parseLimits: {},
      urlFetchAllow: [],
    }).find((definition) => definition.name === SSO_HOUSEKEEPING_JOB)
    expect(job?.cron).toBe('*/10 * * * *')
  })
})

describe('SAML metadata given by address follows a rotated certificate (fix 10)', () => {
  it('a response signed with the new key is accepted after one re-read; the schedule re-reads too', async () => {
    w.metadata.xml = idpMetadata()
    const org = await organisation(w, uniqueDomain())
    await save(org, {
      ...samlSettings([org.domain]),
      metadata_xml: null,
      metadata_url: w.metadata.url,
    })
    const rui = await insertUser(w.ctx.database, {
      role: 'viewer',
      orgId: org.orgId,
      email: `rui@${org.domain}`,
    })
    expect((await person(w).saml(rui.email)).email).toBe(rui.email)
    // the IdP rotates its signing key: its metadata names the new certificate only
    w.metadata.xml = idpMetadata(ATTACKER_CERT)
    expect((await person(w).saml(rui.email, { signWith: 'attacker' })).email).toBe(rui.email)
    // a key the metadata does not name is still refused (after its one re-read)
    expect((await person(w).saml(rui.email, { signWith: 'idp' })).message).toBe('provider_error')

    // on the schedule: metadata older than six hours is read again without a sign-in
    w.metadata.xml = idpMetadata()
    const later = new Date(Date.now() + METADATA_REREAD_MS + 60_000)
    const fetcher = metadataFetcher([new URL(w.metadata.url).host])
    expect((await ssoHousekeeping(w.ctx.database, fetcher, later)).metadataChanged).toBe(1)
    const { rows } = await w.ctx.database.pool.query(
      'select metadata_xml from sso_settings where org_id = $1',
      [org.orgId],
    )
    expect(rows[0].metadata_xml).toBe(idpMetadata())
  })
})
