import { createHmac, timingSafeEqual } from 'node:crypto'
import {
  DIGEST_KINDS,
  NOTIFICATION_KINDS,
  type NotificationKind,
} from '../../../contract/collaboration.ts'

/**
 * One-click unsubscribe links (issue 29): HMAC-SHA256 with the server's secret over
 * `<userId>:<scope>`, where the scope is a kind, 'digest' (the daily email's kinds) or 'all'.
 * The token is `<base64url payload>.<base64url signature>`; it never expires, as RFC 8058 expects.
 */
export type UnsubscribeScope = NotificationKind | 'digest' | 'all'
const SCOPES: readonly string[] = [...NOTIFICATION_KINDS, 'digest', 'all']

const signature = (secret: string, payload: string) =>
  createHmac('sha256', secret).update(`quire-unsubscribe:${payload}`).digest()

export function unsubscribeToken(secret: string, userId: number, scope: UnsubscribeScope) {
  const payload = `${userId}:${scope}`
  return `${Buffer.from(payload).toString('base64url')}.${signature(secret, payload).toString('base64url')}`
}

/** The person and scope a token names, or null when it is not one of ours. */
export function readUnsubscribeToken(
  secret: string,
  token: string,
): { userId: number; scope: UnsubscribeScope } | null {
  const [encoded, signed, extra] = token.split('.')
  if (!encoded || !signed || extra !== undefined || token.length > 512) return null
  const payload = Buffer.from(encoded, 'base64url').toString()
  const expected = signature(secret, payload)
  const given = Buffer.from(signed, 'base64url')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null
  const match = /^([1-9][0-9]{0,15}):([a-z_]+)$/.exec(payload)
  if (!match?.[1] || !match[2] || !SCOPES.includes(match[2])) return null
  return { userId: Number(match[1]), scope: match[2] as UnsubscribeScope }
}

/** The kinds a scope covers. */
export const kindsOf = (scope: UnsubscribeScope): readonly NotificationKind[] =>
  scope === 'all' ? NOTIFICATION_KINDS : scope === 'digest' ? DIGEST_KINDS : [scope]
