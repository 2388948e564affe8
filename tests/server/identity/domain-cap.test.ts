import { describe, expect, it } from 'vitest'
import { ERROR_CODES } from '../../../contract/errors.ts'
import { MAX_VERIFIED_DOMAINS, ORGANIZATION_TEXTS } from '../../../contract/organization.ts'
import { paths } from '../../../contract/paths.ts'
import { get, post } from '../auth/helpers.ts'
import { identityWorld, organisation, uniqueDomain } from './world.ts'

/**
 * Issue 37, S5: a domain proved by DNS counts against the same cap of verified domains that
 * update_organization keeps (20): past it the proof is refused with the same words, and nothing
 * is written.
 */
const w = identityWorld()

const countOf = async (sql: string, values: unknown[]) =>
  Number((await w.ctx.database.pool.query<{ n: string }>(sql, values)).rows[0]?.n)

/** Fills the organisation up to the cap, straight into the database (mailbox-verified ones). */
async function fill(org: { orgId: number; user: { id: number } }, have: number) {
  for (let i = have; i < MAX_VERIFIED_DOMAINS; i++)
    await w.ctx.database.pool.query(
      'insert into organization_domains (domain, org_id, added_by) values ($1, $2, $3)',
      [uniqueDomain('filler'), org.orgId, org.user.id],
    )
}

async function publishRecord(org: { token: string }, domain: string) {
  const record = await get(w.ctx, `${paths.account.domainDnsRecord}?domain=${domain}`, org.token)
  expect(record.status).toBe(200)
  w.dns.publish(domain, [record.body.value])
}

describe('domain proofs by DNS respect the cap of verified domains (issue 37, S5)', () => {
  it('refuses a proof past the cap with the words update_organization uses, writing nothing', async () => {
    const org = await organisation(w, uniqueDomain('capped'))
    await fill(org, 1)
    const domains = () =>
      countOf('select count(*) as n from organization_domains where org_id = $1', [org.orgId])
    const audits = () =>
      countOf(
        `select count(*) as n from audit_events
          where org_id = $1 and action = 'organization.domain_dns_verified'`,
        [org.orgId],
      )
    expect(await domains()).toBe(MAX_VERIFIED_DOMAINS)

    const extra = uniqueDomain('extra')
    await publishRecord(org, extra)
    const refused = await post(w.ctx, paths.account.domainVerifyDns, { domain: extra }, org.token)
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({
      error: ORGANIZATION_TEXTS.tooManyDomains,
      msg: ORGANIZATION_TEXTS.tooManyDomains,
      code: ERROR_CODES.validation,
    })
    expect(await domains()).toBe(MAX_VERIFIED_DOMAINS)
    expect(await audits()).toBe(0)
    const after = await get(w.ctx, paths.account.organization, org.token)
    expect(after.body.verified_domains).not.toContain(extra)

    // update_organization refuses the same 21st domain in the same words
    const listed = await post(
      w.ctx,
      paths.account.updateOrganization,
      { verified_domains: [...after.body.verified_domains, extra] },
      org.token,
    )
    expect(listed.status).toBe(400)
    expect(listed.body.msg).toBe(`verified_domains: ${ORGANIZATION_TEXTS.tooManyDomains}`)

    // a domain the organisation already holds may be proved again: it adds nothing
    await publishRecord(org, org.domain)
    const again = await post(
      w.ctx,
      paths.account.domainVerifyDns,
      { domain: org.domain },
      org.token,
    )
    expect(again.status, JSON.stringify(again.body)).toBe(200)
    expect(again.body.dns_verified_domains).toContain(org.domain)
    expect(await domains()).toBe(MAX_VERIFIED_DOMAINS)

    // one domain less: the proof goes through
    await w.ctx.database.pool.query(
      `delete from organization_domains
        where org_id = $1 and domain = (select min(domain) from organization_domains
                                         where org_id = $1 and domain like 'filler-%')`,
      [org.orgId],
    )
    const proved = await post(w.ctx, paths.account.domainVerifyDns, { domain: extra }, org.token)
    expect(proved.status, JSON.stringify(proved.body)).toBe(200)
    expect(proved.body.dns_verified_domains).toContain(extra)
    expect(await domains()).toBe(MAX_VERIFIED_DOMAINS)
  })

  it('takes no domain away from another organisation when the prover is at the cap', async () => {
    const holder = await organisation(w, uniqueDomain('holder'), 'mailbox')
    const prover = await organisation(w, uniqueDomain('prover'))
    await fill(prover, 1)
    await publishRecord(prover, holder.domain)
    const refused = await post(
      w.ctx,
      paths.account.domainVerifyDns,
      { domain: holder.domain },
      prover.token,
    )
    expect(refused.status).toBe(400)
    expect(refused.body.error).toBe(ORGANIZATION_TEXTS.tooManyDomains)
    // the holder keeps it, and is told nothing
    const kept = await get(w.ctx, paths.account.organization, holder.token)
    expect(kept.body.verified_domains).toEqual([holder.domain])
    expect(w.smtp.to(holder.email)).toEqual([])
  })
})
