import { SSO_TEXTS } from '../../../contract/sso.ts'
import type { Database } from '../../db/index.ts'
import { apiError } from '../../http/errors.ts'
import { safeFetch } from '../../net/safe-fetch.ts'
import { parseIdpMetadata } from './saml.ts'

/** How often SAML metadata given by address is read again, so a rotated certificate just works. */
export const METADATA_REREAD_MS = 6 * 60 * 60_000

/** Reads metadata by address through the guarded fetch (SS1-SS4), at most 1 MB. */
export function metadataFetcher(allow: string[]) {
  return async (url: string) => {
    try {
      const fetched = await safeFetch(url, { allow, maxBytes: 1024 * 1024 })
      return fetched.body.toString('utf8')
    } catch {
      throw apiError(400, SSO_TEXTS.metadataUnreachable, { code: 'validation_error' })
    }
  }
}

/**
 * Reads an organisation's SAML metadata again from its address and keeps it when it is usable
 * metadata; the new XML when it changed, else undefined (unusable or unreachable metadata leaves
 * the stored one in place).
 */
export async function rereadMetadata(
  database: Database,
  orgId: number,
  fetchMetadata: (url: string) => Promise<string>,
): Promise<string | undefined> {
  const { pool } = database
  const { rows } = await pool.query<{ metadata_url: string | null; metadata_xml: string | null }>(
    `select metadata_url, metadata_xml from sso_settings
      where org_id = $1 and provider = 'microsoft_saml'`,
    [orgId],
  )
  const row = rows[0]
  if (!row?.metadata_url) return undefined
  const xml = await fetchMetadata(row.metadata_url)
  parseIdpMetadata(xml)
  await pool.query(
    `update sso_settings set metadata_xml = $2, metadata_fetched_at = now()
      where org_id = $1 and metadata_url = $3`,
    [orgId, xml, row.metadata_url],
  )
  return xml !== row.metadata_xml ? xml : undefined
}

/**
 * The scheduled upkeep of single sign-on: flows and one-time codes an hour past their expiry go
 * (a used or expired state stays an hour, so that its refusal still says 'invalid_session'), and
 * metadata given by address is read again once it is `METADATA_REREAD_MS` old.
 */
export async function ssoHousekeeping(
  database: Database,
  fetchMetadata: (url: string) => Promise<string>,
  now = new Date(),
) {
  const { pool } = database
  const before = new Date(now.getTime() - 60 * 60_000)
  const flows = await pool.query('delete from sso_flows where expires_at < $1', [before])
  const codes = await pool.query('delete from sso_codes where expires_at < $1', [before])
  const { rows: due } = await pool.query<{ org_id: string }>(
    `select org_id from sso_settings
      where provider = 'microsoft_saml' and metadata_url is not null
        and (metadata_fetched_at is null or metadata_fetched_at < $1)`,
    [new Date(now.getTime() - METADATA_REREAD_MS)],
  )
  let reread = 0
  for (const { org_id } of due) {
    const changed = await rereadMetadata(database, Number(org_id), fetchMetadata).catch(
      () => undefined,
    )
    if (changed) reread += 1
  }
  return { flows: flows.rowCount ?? 0, codes: codes.rowCount ?? 0, metadataChanged: reread }
}
