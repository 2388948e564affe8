import type { SsoProvider } from '../../contract/paths.ts'
import type { Database } from '../db/index.ts'

/**
 * AS12: whether an address must sign in with single sign-on. An organisation's requirement holds
 * for its own members only; an address without an account follows the organisation that proved
 * its domain by DNS and requires SSO for it (so that refusing says nothing about who exists).
 * Another organisation's settings, whatever domains they name, never reach a member. The
 * provider, or null.
 */
export async function ssoRequiredFor(
  pool: Pick<Database['pool'], 'query'>,
  email: string,
): Promise<SsoProvider | null> {
  const address = email.trim().toLowerCase()
  const domain = address.split('@')[1] ?? ''
  const { rows } = await pool.query<{ provider: SsoProvider }>(
    `with member as (select org_id from users where lower(email) = $2)
     select s.provider from sso_settings s
      where s.enabled and s.enforce_sso and (
        s.org_id = (select org_id from member)
        or (not exists (select 1 from member) and $1 = any(s.domains) and exists (
              select 1 from organization_domains d
               where d.org_id = s.org_id and d.domain = $1 and d.dns_verified_at is not null)))
      limit 1`,
    [domain, address],
  )
  return rows[0]?.provider ?? null
}
