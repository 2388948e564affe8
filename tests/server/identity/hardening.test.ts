import { describe, expect, it } from 'vitest'
import { ORGANIZATION_TEXTS } from '../../../contract/organization.ts'
import { paths } from '../../../contract/paths.ts'
import { SSO_TEXTS } from '../../../contract/sso.ts'
import { idpMetadata } from '../../support/saml-idp.ts'
import { get, insertUser, post, signIn } from '../auth/helpers.ts'
import {
  googleSettings,
  identityWorld,
  oidcSettings,
  organisation,
  person,
  samlSettings,
  saveSettings,
  uniqueDomain,
} from './world.ts'

/**
 * Issue 26, hardening II: one organisation's sign-in settings never reach another's people. Each
 * test here reproduces a probe of the review that succeeded before its fix: fixes 1 to 3 here,
 * the later ones in hardening-providers.test.ts.
 */
const w = identityWorld()

describe('an identity belongs to the provider configuration that vouched for it (fix 1)', () => {
  it("a SAML response naming another provider's Issuer is refused, and Google sign-in stays the victim's", async () => {
    // the victim's organisation signs in with Google
    const victimOrg = await organisation(w, uniqueDomain('victim'))
    await saveSettings(w, victimOrg, googleSettings([victimOrg.domain]))
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
    await saveSettings(w, attackerOrg, samlSettings([attackerOrg.domain]))
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
    await saveSettings(w, victimOrg, oidcSettings(w, [victimOrg.domain]))
    const victim = await insertUser(w.ctx.database, {
      role: 'approver',
      orgId: victimOrg.orgId,
      email: `ana@${victimOrg.domain}`,
    })
    const account = { sub: 'oidc-ana', email: victim.email, email_verified: true }

    // the attacker's SAML metadata names that issuer as its own entity id (its admin wrote it)
    const attackerOrg = await organisation(w, uniqueDomain('attacker'))
    await saveSettings(w, attackerOrg, {
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
    await saveSettings(w, org, oidcSettings(w, [org.domain]))
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
    await saveSettings(w, org, samlSettings([org.domain]))
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
    await saveSettings(w, googleOrg, googleSettings([googleOrg.domain]))
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
    await saveSettings(
      w,
      insider,
      oidcSettings(w, [domain], { enforce_sso: true, jit_provisioning: true }),
    )

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
    await saveSettings(w, org, oidcSettings(w, [domain], { jit_provisioning: true }))
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
