import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
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
  ENTRA,
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
 * Issue 26, hardening II, fixes 5 to 10: what each provider is trusted with (a required provider,
 * the stored client secret, verified emails, the rate of sign-in starts, rotated SAML keys). Each
 * test reproduces a probe of the review that succeeded before its fix; fixes 1 to 3 are in
 * hardening.test.ts.
 */
const w = identityWorld()

describe('Google sign-in never goes around a required provider (fix 5)', () => {
  it('a member whose Google account was linked earlier is refused once SAML is required', async () => {
    const org = await organisation(w, uniqueDomain())
    await saveSettings(w, org, googleSettings([org.domain]))
    const lin = await insertUser(w.ctx.database, {
      role: 'viewer',
      orgId: org.orgId,
      email: `lin@${org.domain}`,
    })
    const account = { sub: 'google-lin-2', email: lin.email, email_verified: true, hd: org.domain }
    expect((await person(w).google(account)).email).toBe(lin.email)
    await saveSettings(w, org, samlSettings([org.domain], { enforce_sso: true }))
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
    await saveSettings(w, org, oidcSettings(w, [org.domain]))
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
    await saveSettings(w, org, { ...elsewhere, client_secret: ENTRA.client_secret })
    await saveSettings(w, org, { ...elsewhere, client_secret: '', jit_provisioning: true })
    expect((await get(w.ctx, paths.sso.settings, org.token)).body.has_client_secret).toBe(true)
  })
})

describe('only emails the provider verified, matched on immutable ids (fix 7)', () => {
  it('an unverified email with a tenant id, or a preferred_username, links nobody', async () => {
    const org = await organisation(w, uniqueDomain())
    await saveSettings(w, org, oidcSettings(w, [org.domain]))
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
    await saveSettings(w, org, {
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
