import { ERROR_CODES } from '../../../contract/errors.ts'
import { LOGO_MAX_BYTES, ORGANIZATION_TEXTS } from '../../../contract/organization.ts'
import type { AuthContext } from '../../auth/context.ts'
import type { Database } from '../../db/index.ts'
import { apiError, notFound } from '../../http/errors.ts'

/** The image types a logo may be, told by their first bytes (never by the name or the header). */
export function imageTypeOf(bytes: Buffer): 'image/png' | 'image/jpeg' | 'image/webp' | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from('89504e470d0a1a0a', 'hex')))
    return 'image/png'
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return 'image/jpeg'
  if (
    bytes.length >= 12 &&
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'image/webp'
  return null
}

/**
 * The organisation's logo: a PNG, JPEG or WebP image of at most LOGO_MAX_BYTES, kept in the
 * database (every API node serves it). SVG is refused: it can carry script. Changes are audited.
 */
export function createLogoService(deps: { database: Database }) {
  const { pool } = deps.database

  async function audit(auth: AuthContext, requestId: string, action: string, detail: object) {
    await pool.query(
      `insert into audit_events (org_id, actor_id, action, target, request_id, detail)
       values ($1, $2, $3, $4, $5, $6)`,
      [auth.org.id, auth.user.id, action, `organization:${auth.org.id}`, requestId, detail],
    )
  }

  async function put(auth: AuthContext, bytes: Buffer, requestId: string) {
    if (!bytes.length)
      throw apiError(400, ORGANIZATION_TEXTS.logoType, { code: ERROR_CODES.validation })
    if (bytes.length > LOGO_MAX_BYTES)
      throw apiError(413, ORGANIZATION_TEXTS.logoTooLarge, { code: ERROR_CODES.tooLarge })
    const mime = imageTypeOf(bytes)
    if (!mime)
      throw apiError(415, ORGANIZATION_TEXTS.logoType, { code: ERROR_CODES.unsupportedMedia })
    const { rows } = await pool.query<{ updated_at: Date }>(
      `insert into organization_logos (org_id, mime, data, updated_at) values ($1, $2, $3, now())
       on conflict (org_id) do update set mime = excluded.mime, data = excluded.data, updated_at = now()
       returning updated_at`,
      [auth.org.id, mime, bytes],
    )
    await audit(auth, requestId, 'organization.logo_changed', {
      after: { type: mime, bytes: bytes.length },
    })
    return { logo_updated_at: rows[0]?.updated_at.toISOString() ?? null }
  }

  async function get(orgId: number) {
    const { rows } = await pool.query<{ mime: string; data: Buffer; updated_at: Date }>(
      'select mime, data, updated_at from organization_logos where org_id = $1',
      [orgId],
    )
    const row = rows[0]
    if (!row) throw notFound(ORGANIZATION_TEXTS.noLogo)
    return row
  }

  async function remove(auth: AuthContext, requestId: string) {
    const { rowCount } = await pool.query('delete from organization_logos where org_id = $1', [
      auth.org.id,
    ])
    if (rowCount) await audit(auth, requestId, 'organization.logo_removed', {})
    return { logo_updated_at: null }
  }

  return { put, get, remove }
}
