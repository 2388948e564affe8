import type { SsoProvider } from '../../contract/paths.ts'
import type { Database } from '../db/index.ts'

/**
 * AS12: whether an address must sign in with single sign-on: its domain is one an organisation
 * requires SSO for, or its account belongs to such an organisation. The provider, or null.
 * Decided by the address alone, whether an account exists or not, so that refusing says nothing.
 */
export async function ssoRequiredFor(
  pool: Pick<Database['pool'], 'query'>,
  email: string,
): Promise<SsoProvider | null> {
  const address = email.trim().toLowerCase()
  const domain = address.split('@')[1] ?? ''
  const { rows } = await pool.query<{ provider: SsoProvider }>(
    `select s.provider from sso_settings s
      where s.enabled and s.enforce_sso
        and ($1 = any(s.domains) or s.org_id = (select org_id from users where lower(email) = $2))
      limit 1`,
    [domain, address],
  )
  return rows[0]?.provider ?? null
}
