import { createHmac } from 'node:crypto'
import { Resolver } from 'node:dns/promises'
import type pg from 'pg'
import { PUBLIC_EMAIL_DOMAINS } from '../../../contract/domains.ts'
import { ERROR_CODES } from '../../../contract/errors.ts'
import {
  type DnsRecord,
  MAX_VERIFIED_DOMAINS,
  ORGANIZATION_TEXTS,
} from '../../../contract/organization.ts'
import type { AuthContext } from '../../auth/context.ts'
import { type Database, inTransaction } from '../../db/index.ts'
import { apiError } from '../../http/errors.ts'
import type { Mailer } from '../../mail/index.ts'
import { domainMovedMail } from '../../mail/messages.ts'

const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole)

/** Reads a name's TXT records (each record's strings joined). */
export type TxtLookup = (name: string) => Promise<string[]>

/**
 * TXT lookups through DNS_RESOLVER (`host` or `host:port`, a DNS server on loopback in tests), else
 * the system's resolvers. Answers that say the name or record does not exist are an empty list;
 * other failures (timeouts, SERVFAIL) throw.
 */
export function createTxtLookup(server?: string): TxtLookup {
  const resolver = new Resolver({ timeout: 3_000, tries: 2 })
  if (server) resolver.setServers([server])
  return async (name) => {
    try {
      return (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''))
    } catch (error) {
      const code = (error as { code?: string }).code
      if (code === 'ENOTFOUND' || code === 'ENODATA') return []
      throw error
    }
  }
}

/**
 * Proof of a domain by DNS: the organisation publishes `quire-verification=<token>` as a TXT
 * record of the domain (the token is an HMAC of the organisation and the domain under the server
 * secret, so nothing is stored until it is proved). A proved domain is the organisation's even
 * when another organisation held it through an admin's mailbox only, or by a DNS record it no
 * longer publishes: that one loses it (and the domain leaves its single sign-on settings), and its
 * admins are told by email. A domain whose holder's record is still published stays theirs (409).
 */
export function createDomainProofs(deps: {
  database: Database
  secret: string
  lookup: TxtLookup
  mailer: Mailer
  publicUrl: string
}) {
  const { pool } = deps.database

  function record(orgId: number, domain: string): DnsRecord {
    const token = createHmac('sha256', deps.secret)
      .update(`quire-domain-proof:${orgId}:${domain}`)
      .digest('base64url')
      .slice(0, 32)
    return { domain, type: 'TXT', name: domain, value: `quire-verification=${token}` }
  }

  async function verify(auth: AuthContext, domain: string, requestId: string) {
    const orgId = auth.org.id
    if (PUBLIC_EMAIL_DOMAINS.has(domain)) {
      const text = fill(ORGANIZATION_TEXTS.publicDomain, { domain })
      throw apiError(400, text, { msg: text, code: ERROR_CODES.validation })
    }
    const expected = record(orgId, domain).value
    let found: string[]
    try {
      found = await deps.lookup(domain)
    } catch {
      const text = fill(ORGANIZATION_TEXTS.dnsUnreachable, { domain })
      throw apiError(502, text, { msg: text, code: 'dns_unreachable' })
    }
    if (!found.some((value) => value.trim() === expected)) {
      const text = fill(ORGANIZATION_TEXTS.dnsNotFound, { domain, value: expected })
      throw apiError(400, text, { msg: text, code: 'dns_not_found' })
    }
    const loser = await inTransaction(pool, async (client) => {
      // one proof at a time per domain
      await client.query('select pg_advisory_xact_lock(hashtext($1))', [`domain:${domain}`])
      await withinCap(client, orgId, domain)
      const { rows } = await client.query<{ org_id: string; dns_verified_at: Date | null }>(
        'select org_id, dns_verified_at from organization_domains where domain = $1 for update',
        [domain],
      )
      const held = rows[0]
      let moved: number | null = null
      if (held && Number(held.org_id) !== orgId) {
        // a DNS proof stands while its record is still published: the DNS of today decides
        const holderRecord = record(Number(held.org_id), domain).value
        if (held.dns_verified_at && found.some((value) => value.trim() === holderRecord)) {
          const text = fill(ORGANIZATION_TEXTS.dnsTaken, { domain })
          throw apiError(409, text, { msg: text, code: ERROR_CODES.conflict })
        }
        moved = Number(held.org_id)
        await client.query('delete from organization_domains where domain = $1', [domain])
        await client.query(
          `update sso_settings set domains = array_remove(domains, $2), updated_at = now()
            where org_id = $1`,
          [moved, domain],
        )
        await client.query(
          `insert into audit_events (org_id, actor_id, action, target, detail)
           values ($1, null, 'organization.domain_lost', $2, $3)`,
          [
            moved,
            `organization:${moved}`,
            {
              domain,
              reason: held.dns_verified_at
                ? 'its DNS record is gone and another organisation proved the domain'
                : 'proved by DNS elsewhere',
            },
          ],
        )
      }
      await client.query(
        `insert into organization_domains (domain, org_id, added_by, dns_verified_at)
         values ($1, $2, $3, now())
         on conflict (domain) do update set dns_verified_at = now()`,
        [domain, orgId, auth.user.id],
      )
      await client.query(
        `insert into audit_events (org_id, actor_id, action, target, request_id, detail)
         values ($1, $2, 'organization.domain_dns_verified', $3, $4, $5)`,
        [orgId, auth.user.id, `organization:${orgId}`, requestId, { domain, record: expected }],
      )
      return moved
    })
    if (loser !== null) await tellAdmins(loser, domain)
  }

  /**
   * A new domain counts against the cap update_organization keeps (issue 37, S5): the organisation
   * is locked as update_organization locks it, so that neither path slips past the other.
   */
  async function withinCap(client: pg.PoolClient, orgId: number, domain: string) {
    await client.query('select id from organizations where id = $1 for update', [orgId])
    const { rows } = await client.query<{ held: string; has: boolean }>(
      `select count(*) as held, coalesce(bool_or(domain = $2), false) as has
         from organization_domains where org_id = $1`,
      [orgId, domain],
    )
    const row = rows[0]
    if (!row?.has && Number(row?.held ?? 0) >= MAX_VERIFIED_DOMAINS) {
      const text = ORGANIZATION_TEXTS.tooManyDomains
      throw apiError(400, text, { msg: text, code: ERROR_CODES.validation })
    }
  }

  async function tellAdmins(orgId: number, domain: string) {
    const { rows } = await pool.query<{ email: string; first_name: string; name: string }>(
      `select u.email, u.first_name, o.name from users u join organizations o on o.id = u.org_id
        where u.org_id = $1 and u.role = 'admin' and u.status = 'active'`,
      [orgId],
    )
    for (const admin of rows)
      deps.mailer.send(
        domainMovedMail(
          { publicUrl: deps.publicUrl },
          { to: admin.email, firstName: admin.first_name, domain, organization: admin.name },
        ),
      )
  }

  return { record, verify }
}
