import {
  ACCESS_TOKEN_KEY,
  type AccessClaims,
  accessClaimsSchema,
  REFRESH_TOKEN_KEY,
} from '../../contract/auth.ts'

/**
 * The two tokens live in localStorage (spec section 3): an accepted risk, compensated by a strict
 * CSP, short access tokens and refresh rotation (docs/security.md).
 */

export interface Tokens {
  access: string | null
  refresh: string | null
}

const storage = (): Storage | undefined => {
  try {
    return globalThis.localStorage
  } catch {
    return undefined
  }
}

export function readTokens(): Tokens {
  const store = storage()
  return {
    access: store?.getItem(ACCESS_TOKEN_KEY) ?? null,
    refresh: store?.getItem(REFRESH_TOKEN_KEY) ?? null,
  }
}

export function storeTokens(tokens: { access: string; refresh?: string | null }) {
  const store = storage()
  store?.setItem(ACCESS_TOKEN_KEY, tokens.access)
  if (tokens.refresh) store?.setItem(REFRESH_TOKEN_KEY, tokens.refresh)
}

export function clearTokens() {
  const store = storage()
  store?.removeItem(ACCESS_TOKEN_KEY)
  store?.removeItem(REFRESH_TOKEN_KEY)
}

function base64UrlDecode(segment: string): string {
  const padded = segment
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(segment.length / 4) * 4, '=')
  const binary = atob(padded)
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0))
  return new TextDecoder().decode(bytes)
}

/**
 * Reads the claims of an access token without verifying it: the browser only needs `exp` and the
 * optional `user`; the server verifies every token it receives. Malformed tokens give null.
 */
export function decodeAccessToken(token: string | null | undefined): AccessClaims | null {
  if (!token) return null
  const payload = token.split('.')[1]
  if (!payload) return null
  try {
    const result = accessClaimsSchema.safeParse(JSON.parse(base64UrlDecode(payload)))
    return result.success ? result.data : null
  } catch {
    return null
  }
}

/** Seconds until the token expires (negative when expired). */
export const secondsRemaining = (claims: AccessClaims, nowMs: number = Date.now()) =>
  claims.exp - nowMs / 1000
