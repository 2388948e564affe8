import { createHash, randomBytes } from 'node:crypto'
import {
  API_KEY_PREFIX,
  API_KEY_TEXTS,
  type ApiKey,
  type ApiKeyCreate,
  type ApiKeyCreated,
  type ApiKeyScope,
} from '../../../contract/platform.ts'
import type { Role } from '../../../contract/roles.ts'
import type { AuthContext } from '../../auth/context.ts'
import type { RateRule } from '../../auth/rate-limit.ts'
import { writeAudit } from '../../db/audit.ts'
import { type Database, inTransaction } from '../../db/index.ts'
import { apiError } from '../../http/errors.ts'
import { createMemoryLimiter } from '../../http/memory-limit.ts'
import type { Logger } from '../../logger.ts'

/**
 * API keys (issue 41). A key is `qk_` and 43 random characters, shown once; only its SHA-256 is
 * kept. On each call it is read fresh (a revocation holds from the next request), limited per key
 * (in each node's memory),
 * and acts for its organisation with the role its scopes give: read is a viewer's reach, write an
 * approver's (never people, settings, SSO or billing). Its calls are attributed to its creator,
 * and its keys stop with them when they leave the organisation.
 */

/** Calls per key and minute. */
export const API_KEY_RULE = { limit: 600, windowMs: 60_000 }
/** A key's last use is written at most so often (no write on every call). */
const LAST_USE_EVERY_MS = 60_000
/** A refused key's audit entry at most so often per key (a flood writes one row a minute). */
const REFUSAL_AUDIT_EVERY_MS = 60_000

export const roleOfScopes = (scopes: readonly ApiKeyScope[]): Role =>
  scopes.includes('write') ? 'approver' : 'viewer'

const hashKey = (key: string) => createHash('sha256').update(key).digest('hex')
const FAR_FUTURE = new Date('9999-12-31T00:00:00Z')

interface KeyRow {
  id: string
  org_id: string
  name: string
  prefix: string
  scopes: ApiKeyScope[]
  created_at: Date
  created_by: string | null
  creator_name: string | null
  last_used_at: Date | null
  expires_at: Date | null
  revoked_at: Date | null
}

const toKey = (row: KeyRow): ApiKey => ({
  id: Number(row.id),
  name: row.name,
  prefix: row.prefix,
  scopes: row.scopes,
  created_at: row.created_at.toISOString(),
  created_by:
    row.created_by === null
      ? null
      : { id: Number(row.created_by), name: row.creator_name?.trim() || 'Someone' },
  last_used_at: row.last_used_at?.toISOString() ?? null,
  expires_at: row.expires_at?.toISOString() ?? null,
  revoked_at: row.revoked_at?.toISOString() ?? null,
})

const SELECT = `select k.id, k.org_id, k.name, k.prefix, k.scopes, k.created_at, k.created_by,
    nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') as creator_name,
    k.last_used_at, k.expires_at, k.revoked_at
  from api_keys k left join users u on u.id = k.created_by`

export function createApiKeyService(deps: {
  database: Database
  logger?: Logger
  now?: () => Date
  rule?: RateRule
}) {
  // counted in this node's memory: no database write per call (each node counts its own)
  const limiter = createMemoryLimiter(deps.rule ?? API_KEY_RULE)
  const { pool } = deps.database
  const now = deps.now ?? (() => new Date())
  const lastAudited = new Map<string, number>()

  async function create(
    orgId: number,
    userId: number,
    input: ApiKeyCreate,
    requestId?: string,
  ): Promise<ApiKeyCreated> {
    const expires = input.expires_at ? new Date(input.expires_at) : null
    if (expires && expires <= now())
      throw apiError(400, API_KEY_TEXTS.expiryPast, { code: 'validation_error' })
    const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`
    const prefix = key.slice(0, API_KEY_PREFIX.length + 6)
    const scopes = [...new Set(input.scopes)].sort() as ApiKeyScope[]
    return inTransaction(pool, async (client) => {
      const { rows } = await client.query<{ id: string }>(
        `insert into api_keys (org_id, name, prefix, key_hash, scopes, created_by, expires_at)
         values ($1, $2, $3, $4, $5, $6, $7) returning id`,
        [orgId, input.name.trim(), prefix, hashKey(key), scopes, userId, expires],
      )
      const id = Number(rows[0]?.id)
      await writeAudit(
        client,
        { orgId, actorId: userId, requestId },
        {
          action: 'api_key.created',
          target: `api_key:${id}`,
          name: input.name.trim(),
          detail: { scopes, prefix, expires_at: expires?.toISOString() ?? null },
        },
      )
      const row = (await client.query<KeyRow>(`${SELECT} where k.id = $1`, [id])).rows[0]
      return { ...toKey(row as KeyRow), key }
    })
  }

  async function list(orgId: number): Promise<ApiKey[]> {
    const { rows } = await pool.query<KeyRow>(
      `${SELECT} where k.org_id = $1 order by k.revoked_at is not null, k.created_at desc, k.id desc
       limit 500`,
      [orgId],
    )
    return rows.map(toKey)
  }

  async function revoke(orgId: number, userId: number, id: number, requestId?: string) {
    return inTransaction(pool, async (client) => {
      const { rows } = await client.query<KeyRow>(
        `${SELECT} where k.id = $1 and k.org_id = $2 for update of k`,
        [id, orgId],
      )
      const row = rows[0]
      if (!row) throw apiError(404, 'Not found.', { code: 'not_found' })
      if (row.revoked_at) throw apiError(409, API_KEY_TEXTS.alreadyRevoked, { code: 'conflict' })
      await client.query('update api_keys set revoked_at = $2, revoked_by = $3 where id = $1', [
        id,
        now(),
        userId,
      ])
      await writeAudit(
        client,
        { orgId, actorId: userId, requestId },
        { action: 'api_key.revoked', target: `api_key:${id}`, name: row.name },
      )
      return toKey({ ...row, revoked_at: now() })
    })
  }

  /** A refused key of a known organisation is audited, once a minute per key at most. */
  async function refused(row: { id: string; org_id: string; name: string }, reason: string) {
    const at = now().getTime()
    if ((lastAudited.get(row.id) ?? 0) > at - REFUSAL_AUDIT_EVERY_MS) return
    lastAudited.set(row.id, at)
    if (lastAudited.size > 10_000) lastAudited.clear()
    await writeAudit(
      pool,
      { orgId: Number(row.org_id), actorId: null },
      {
        action: 'api_key.refused',
        target: `api_key:${row.id}`,
        name: row.name,
        detail: { reason },
      },
    ).catch((error) => deps.logger?.warn({ err: error }, 'an API key refusal was not audited'))
  }

  /**
   * The caller a key stands for, or null (unknown, expired or revoked; its creator gone or the
   * organisation's access ended). A key over its limit is refused with 429.
   */
  async function authenticate(token: string): Promise<AuthContext | null> {
    if (!token.startsWith(API_KEY_PREFIX) || token.length > 200) return null
    const { rows } = await pool.query<{
      id: string
      org_id: string
      name: string
      scopes: ApiKeyScope[]
      expires_at: Date | null
      revoked_at: Date | null
      last_used_at: Date | null
      user_id: string | null
      email: string | null
      first_name: string | null
      last_name: string | null
      user_status: string | null
    }>(
      `select k.id, k.org_id, k.name, k.scopes, k.expires_at, k.revoked_at, k.last_used_at,
              u.id as user_id, u.email, u.first_name, u.last_name, u.status as user_status
         from api_keys k left join users u on u.id = k.created_by and u.org_id = k.org_id
        where k.key_hash = $1`,
      [hashKey(token)],
    )
    const row = rows[0]
    if (!row) return null
    const at = now()
    const reason = row.revoked_at
      ? 'revoked'
      : row.expires_at && row.expires_at <= at
        ? 'expired'
        : row.user_id === null || row.user_status !== 'active'
          ? 'its creator is no longer active'
          : null
    if (reason) {
      await refused(row, reason)
      return null
    }
    const limit = limiter.hit(row.id)
    if (limit.limited)
      throw apiError(
        429,
        API_KEY_TEXTS.tooMany,
        { code: 'rate_limited' },
        { 'Retry-After': String(limit.retryAfterS) },
      )
    if (!row.last_used_at || row.last_used_at.getTime() < at.getTime() - LAST_USE_EVERY_MS)
      void pool
        .query('update api_keys set last_used_at = $2 where id = $1', [row.id, at])
        .catch((error) => deps.logger?.warn({ err: error }, 'an API key’s last use was not kept'))
    const role = roleOfScopes(row.scopes)
    return {
      user: {
        id: Number(row.user_id),
        email: row.email ?? '',
        firstName: row.first_name ?? '',
        lastName: row.last_name ?? '',
        role,
        mustChangePassword: false,
      },
      org: { id: Number(row.org_id) },
      role,
      sid: `api-key:${row.id}`,
      sessionExpiresAt: row.expires_at ?? FAR_FUTURE,
      apiKey: { id: Number(row.id), name: row.name, scopes: row.scopes },
    }
  }

  return { create, list, revoke, authenticate }
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>
