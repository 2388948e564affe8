import { describe, expect, it } from 'vitest'
import { IDP_ENTITY_ID } from '../../support/saml-idp.ts'
import { insertUser } from '../auth/helpers.ts'
import {
  type DomainState,
  type IdentityProvider,
  identityWorld,
  organisation,
  person,
  saveSettings,
  settingsFor,
  uniqueDomain,
} from './world.ts'

/**
 * Issue 26's property over the identity surface: for two organisations A and B, with every
 * combination of provider (OpenID Connect, SAML, Google, none), requirement and domain state,
 * nothing A configures (its provider, requiring it, just-in-time creation, a claim on B's domain
 * by mailbox or DNS when B does not hold it, and its admin's SAML assertions naming B's people)
 * changes what happens to a member of B on any sign-in path: password, discovery, the start of
 * each provider, B's own provider, and Google sign-in. Every combination is run, not sampled.
 */
const w = identityWorld()

const PROVIDERS: IdentityProvider[] = ['microsoft_oidc', 'microsoft_saml', 'google']

interface BConfig {
  provider: IdentityProvider | null
  enforce: boolean
  hold: DomainState
}
interface AConfig {
  provider: IdentityProvider
  enforce: boolean
  /** A's claim on B's domain (only when B holds nothing there). */
  claim: DomainState
}

let serial = 0

/** B with one member, Bob, configured as asked. */
async function organisationB(config: BConfig) {
  const domain = uniqueDomain('b')
  const b = await organisation(w, domain, config.hold)
  const bob = await insertUser(w.ctx.database, {
    role: 'contributor',
    orgId: b.orgId,
    email: `bob@${domain}`,
  })
  if (config.provider)
    await saveSettings(
      w,
      b,
      settingsFor(w, config.provider, [domain], { enforce_sso: config.enforce }),
    )
  serial += 1
  return { ...b, bob, subject: `bob-${serial}` }
}
type B = Awaited<ReturnType<typeof organisationB>>

/** What happens to Bob on every path, with organisation ids named 'A', 'B' or 'other'. */
async function observe(b: B, config: BConfig, aOrgId: number | null) {
  const name = (orgId: unknown) =>
    Number(orgId) === b.orgId ? 'B' : Number(orgId) === aOrgId ? 'A' : `other`
  const browser = person(w)
  const seen: Record<string, unknown> = {}
  seen.password = (await browser.password(b.bob.email, b.bob.password)).status
  const discovered = await browser.discover(b.bob.email)
  seen.discover = discovered.sso_enabled ? discovered.result?.provider : false
  for (const provider of PROVIDERS) {
    const started = await browser.start(provider, b.bob.email)
    if (started.location.startsWith('http://quire.test:3000/login')) {
      seen[`start:${provider}`] = new URL(started.location).searchParams.get('message')
    } else {
      const { rows } = await w.ctx.database.pool.query(
        `select org_id from sso_flows where provider = $1 and state_hash not like 'saml:%'
          order by created_at desc limit 1`,
        [provider],
      )
      seen[`start:${provider}`] = `to the provider of ${name(rows[0]?.org_id)}`
    }
  }
  if (config.provider === 'microsoft_oidc') {
    const done = await person(w).oidc('microsoft_oidc', b.bob.email, {
      sub: `oidc-${b.subject}`,
      email: b.bob.email,
      email_verified: true,
    })
    seen.own = done.email ?? done.message
  } else if (config.provider === 'microsoft_saml') {
    const done = await person(w).saml(b.bob.email, {
      nameId: `saml-${b.subject}`,
      email: b.bob.email,
    })
    seen.own = done.email ?? done.message
  }
  const google = await person(w).google({
    sub: `google-${b.subject}`,
    email: b.bob.email,
    email_verified: true,
    hd: b.domain,
  })
  seen.google = google.email ?? google.status
  return seen
}

/** A configured as asked, its admin's SAML assertions naming Bob's identities included. */
async function organisationA(config: AConfig, b: B) {
  const a = await organisation(w, uniqueDomain('a'), 'dns')
  const domains = [a.domain]
  if (config.claim !== 'none') {
    await w.ctx.database.pool.query(
      `insert into organization_domains (domain, org_id, added_by, dns_verified_at)
       values ($1, $2, $3, $4)`,
      [b.domain, a.orgId, a.user.id, config.claim === 'dns' ? new Date() : null],
    )
    domains.push(b.domain)
  }
  await saveSettings(
    w,
    a,
    settingsFor(w, config.provider, domains, {
      enforce_sso: config.enforce,
      jit_provisioning: true,
    }),
  )
  if (config.provider === 'microsoft_saml') {
    // the admin's own IdP signs assertions naming Bob's identities at every provider
    for (const [issuer, nameId] of [
      [w.idp.issuer, `oidc-${b.subject}`],
      [w.idp.issuer, `google-${b.subject}`],
      [IDP_ENTITY_ID, `saml-${b.subject}`],
    ] as const)
      await person(w).saml(a.email, { issuer, nameId, email: a.email })
  }
  return a
}

async function retire(a: { orgId: number; domain: string }) {
  // A's settings and claims go, so the next A starts from nothing
  const { pool } = w.ctx.database
  await pool.query('delete from sso_settings where org_id = $1', [a.orgId])
  await pool.query('delete from organization_domains where org_id = $1', [a.orgId])
}

const bConfigs: BConfig[] = [
  { provider: null, enforce: false, hold: 'none' },
  { provider: null, enforce: false, hold: 'mailbox' },
  { provider: null, enforce: false, hold: 'dns' },
  ...PROVIDERS.flatMap((provider) =>
    [false, true].flatMap((enforce) =>
      (['mailbox', 'dns'] as const).map((hold) => ({ provider, enforce, hold })),
    ),
  ),
]

describe('nothing organisation A configures changes what happens to a member of B', () => {
  for (const provider of PROVIDERS)
    it(`A signs in with ${provider}: every B, every requirement and domain state`, {
      timeout: 240_000,
    }, async () => {
      let combinations = 0
      for (const bConfig of bConfigs) {
        const b = await organisationB(bConfig)
        const baseline = await observe(b, bConfig, null)
        const claims: DomainState[] =
          bConfig.hold === 'none' ? ['none', 'mailbox', 'dns'] : ['none']
        for (const enforce of [false, true])
          for (const claim of claims) {
            const aConfig = { provider, enforce, claim }
            const a = await organisationA(aConfig, b)
            const after = await observe(b, bConfig, a.orgId)
            expect(after, JSON.stringify({ a: aConfig, b: bConfig })).toEqual(baseline)
            await retire(a)
            combinations += 1
          }
      }
      expect(combinations).toBe(2 * (3 + (bConfigs.length - 1)))
    })
})
