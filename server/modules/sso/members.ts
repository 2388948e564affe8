import { SSO_TEXTS } from '../../../contract/sso.ts'
import type { Database } from '../../db/index.ts'
import { apiError } from '../../http/errors.ts'
import { effectiveLimit, type LicenseRow } from '../account/license.ts'
import { SsoFailure } from './failure.ts'
import type { OidcIdentity } from './oidc.ts'
import type { SsoRow, SsoSettingsService } from './settings.ts'

interface UserRecord {
  id: number
  org_id: string
  status: string
}

/**
 * Who an identity provider's answer is. An identity belongs to the provider configuration that
 * vouched for it: the organisation, its provider and that provider's issuer, then the subject
 * (never the email, AS9). An unknown identity becomes a member only through the organisation's
 * own provider: an existing member at one of its single sign-on domains with an address the
 * provider verified, or a new one (just-in-time creation on, a free seat, and a domain the
 * organisation proved by DNS). Google sign-in outside an organisation's flow finds only identities
 * Google itself vouched for, and an organisation that requires another provider refuses it.
 */
export function createSsoMembers(deps: {
  database: Database
  settings: SsoSettingsService
  now: () => Date
}) {
  const { pool } = deps.database

  async function linked(orgId: number, provider: string, identity: OidcIdentity) {
    const { rows } = await pool.query<UserRecord>(
      `update user_identities i set last_used_at = now() from users u
        where u.id = i.user_id and u.org_id = i.org_id
          and i.org_id = $1 and i.provider = $2 and i.issuer = $3 and i.subject = $4
       returning u.id, u.org_id, u.status`,
      [orgId, provider, identity.issuer, identity.subject],
    )
    return rows[0]
  }

  async function dnsProven(orgId: number, domain: string) {
    const { rows } = await pool.query(
      `select 1 from organization_domains
        where org_id = $1 and domain = $2 and dns_verified_at is not null`,
      [orgId, domain],
    )
    return rows.length > 0
  }

  /** The person the organisation's own provider vouches for (see above), or `unauthorized`. */
  async function resolve(settings: SsoRow, identity: OidcIdentity): Promise<number> {
    const orgId = Number(settings.org_id)
    const known = await linked(orgId, settings.provider, identity)
    if (known) {
      if (known.status !== 'active') throw new SsoFailure('unauthorized')
      return known.id
    }
    const domain = identity.email?.split('@')[1]
    const domains = await deps.settings.domainsOf(settings)
    if (!identity.email || !identity.emailVerified || !domain || !domains.includes(domain))
      throw new SsoFailure('unauthorized')
    if (settings.provider === 'google' && identity.hd !== domain)
      throw new SsoFailure('unauthorized')
    const client = await pool.connect()
    try {
      await client.query('begin')
      const { rows: licenseRows } = await client.query<{
        max_users: number
        max_repository: number
        max_questionnaire: number
        max_answers: number
        is_active: boolean
        expiration_date: Date | null
      }>('select * from licenses where org_id = $1 for update', [orgId])
      const { rows: existing } = await client.query<UserRecord>(
        'select id, org_id, status from users where lower(email) = $1',
        [identity.email],
      )
      let userId: number
      const member = existing[0]
      if (member) {
        if (Number(member.org_id) !== orgId || member.status !== 'active')
          throw new SsoFailure('unauthorized')
        userId = member.id
      } else {
        if (!settings.jit_provisioning || !(await dnsProven(orgId, domain)))
          throw new SsoFailure('unauthorized')
        const license = licenseRows[0]
        const licenseRow: LicenseRow | undefined = license && {
          maxUsers: license.max_users,
          maxRepository: license.max_repository,
          maxQuestionnaire: license.max_questionnaire,
          maxAnswers: license.max_answers,
          isActive: license.is_active,
          expirationDate: license.expiration_date,
        }
        const seats = effectiveLimit(licenseRow, 'max_users', deps.now())
        const { rows: used } = await client.query<{ n: number }>(
          `select count(*)::int as n from users where org_id = $1 and status not in ('removed', 'pending')`,
          [orgId],
        )
        if (seats !== null && (used[0]?.n ?? 0) >= seats) throw new SsoFailure('unauthorized')
        const { rows: created } = await client.query<{ id: string }>(
          `insert into users (org_id, email, first_name, last_name, role, status, email_confirmed_at)
           values ($1, $2, $3, $4, 'contributor', 'active', now()) returning id`,
          [orgId, identity.email, identity.firstName, identity.lastName],
        )
        userId = Number(created[0]?.id)
        await client.query(
          `insert into audit_events (org_id, actor_id, action, target, detail)
           values ($1, null, 'user.created_by_sso', $2, $3)`,
          [orgId, `user:${userId}`, { after: { email: identity.email, role: 'contributor' } }],
        )
      }
      await client.query(
        `insert into user_identities (org_id, provider, issuer, subject, user_id, email, last_used_at)
         values ($1, $2, $3, $4, $5, $6, now()) on conflict do nothing`,
        [orgId, settings.provider, identity.issuer, identity.subject, userId, identity.email],
      )
      await client.query('commit')
      return userId
    } catch (error) {
      await client.query('rollback').catch(() => undefined)
      throw error
    } finally {
      client.release()
    }
  }

  /** The provider an organisation requires (AS12), or null. */
  async function requiredProvider(orgId: number) {
    const { rows } = await pool.query<{ provider: string }>(
      'select provider from sso_settings where org_id = $1 and enabled and enforce_sso',
      [orgId],
    )
    return rows[0]?.provider ?? null
  }

  /** Google sign-in: the member a Google identity is, or 403. */
  async function resolveGoogle(identity: OidcIdentity): Promise<number> {
    const notAllowed = () => apiError(403, SSO_TEXTS.notAllowed, { code: 'unauthorized' })
    const { rows: known } = await pool.query<UserRecord>(
      `select distinct u.id, u.org_id, u.status from user_identities i
         join users u on u.id = i.user_id and u.org_id = i.org_id
        where i.provider = 'google' and i.issuer = $1 and i.subject = $2`,
      [identity.issuer, identity.subject],
    )
    let userId: number
    let orgId: number
    if (known.length > 1) throw notAllowed()
    const member = known[0]
    if (member) {
      if (member.status !== 'active') throw notAllowed()
      userId = member.id
      orgId = Number(member.org_id)
    } else {
      // an unknown Google account: only through an organisation that signs in with Google
      const settings = identity.email ? await deps.settings.forEmail(identity.email) : undefined
      if (settings?.provider !== 'google') throw notAllowed()
      try {
        userId = await resolve(settings, identity)
      } catch (error) {
        if (error instanceof SsoFailure) throw notAllowed()
        throw error
      }
      orgId = Number(settings.org_id)
    }
    const required = await requiredProvider(orgId)
    if (required && required !== 'google')
      throw apiError(403, SSO_TEXTS.ssoRequired, { code: 'sso_required' })
    if (member)
      await pool.query(
        `update user_identities set last_used_at = now()
          where org_id = $1 and provider = 'google' and issuer = $2 and subject = $3`,
        [orgId, identity.issuer, identity.subject],
      )
    return userId
  }

  return { resolve, resolveGoogle }
}
