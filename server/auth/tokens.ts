import { createHash, randomBytes } from 'node:crypto'
import { errors, jwtVerify, SignJWT } from 'jose'
import { ACCESS_TOKEN_TTL_S } from '../../contract/auth.ts'
import type { UserRole } from '../db/schema.ts'

/**
 * Access tokens are short-lived HS256 JWTs; refresh and link tokens are opaque random strings kept
 * only as SHA-256 hashes (LT3). Verification pins the algorithm, issuer, audience and token type,
 * and uses the injected clock, so that forged, foreign, expired and not-yet-valid tokens fail (AS4).
 */

export const ISSUER = 'quire'
export const AUDIENCE = 'quire-api'
/** Header `typ` of access tokens (RFC 9068); the `token_use` claim says the same in the body. */
export const ACCESS_TOKEN_TYPE = 'at+jwt'
const ALGORITHM = 'HS256'

// a type alias, not an interface: it must fit the contract's open (index-signature) user objects
export type AccessUser = {
  id: number
  email: string
  first_name: string
  last_name: string
  role: UserRole
}

export interface AccessClaims {
  sub: string
  sid: string
  org: number
  user: AccessUser
  exp: number
}

export type Clock = () => Date

export interface TokenService {
  signAccess(input: { user: AccessUser; orgId: number; sessionId: string }): Promise<string>
  /** The verified claims, or null for any token that is not a valid access token right now. */
  verifyAccess(token: string): Promise<AccessClaims | null>
}

/** How many verified access tokens are remembered (about 1 KB each). */
const VERIFIED_CACHE_SIZE = 10_000

export function createTokenService(options: { secret: string; now: Clock }): TokenService {
  const key = new TextEncoder().encode(options.secret)
  // A token that verified once verifies again until it expires: its signature, issuer, audience
  // and type cannot change. Remembering it spares the HMAC on every call of a busy client; the
  // time window is checked on every use, and the session behind it is still read per call (AS6).
  const verified = new Map<string, { claims: AccessClaims; nbf: number }>()
  return {
    async signAccess({ user, orgId, sessionId }) {
      const nowS = Math.floor(options.now().getTime() / 1000)
      return new SignJWT({ token_use: 'access', sid: sessionId, org: orgId, user })
        .setProtectedHeader({ alg: ALGORITHM, typ: ACCESS_TOKEN_TYPE })
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setSubject(String(user.id))
        .setIssuedAt(nowS)
        .setNotBefore(nowS)
        .setExpirationTime(nowS + ACCESS_TOKEN_TTL_S)
        .setJti(randomBytes(12).toString('base64url'))
        .sign(key)
    },
    async verifyAccess(token) {
      const nowS = options.now().getTime() / 1000
      const known = verified.get(token)
      if (known) return known.nbf <= nowS && nowS < known.claims.exp ? known.claims : null
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: [ALGORITHM],
          issuer: ISSUER,
          audience: AUDIENCE,
          typ: ACCESS_TOKEN_TYPE,
          requiredClaims: ['sub', 'sid', 'exp', 'iat'],
          currentDate: options.now(),
        })
        if (payload.token_use !== 'access') return null
        const { sub, sid, org, user, exp } = payload
        if (typeof sub !== 'string' || !/^\d+$/.test(sub)) return null
        if (typeof sid !== 'string' || typeof org !== 'number' || typeof exp !== 'number') {
          return null
        }
        if (!user || typeof user !== 'object') return null
        const claims = { sub, sid, org, user: user as AccessUser, exp }
        if (verified.size >= VERIFIED_CACHE_SIZE) {
          // the oldest entry goes first (a Map iterates in insertion order)
          const oldest = verified.keys().next().value
          if (oldest !== undefined) verified.delete(oldest)
        }
        const nbf = typeof payload.nbf === 'number' ? payload.nbf : (payload.iat ?? 0)
        verified.set(token, { claims, nbf })
        return claims
      } catch (error) {
        if (error instanceof errors.JOSEError || error instanceof TypeError) return null
        throw error
      }
    },
  }
}

/** 256 bits from the CSPRNG, URL-safe: refresh tokens and mailed link tokens (LT3). */
export const randomToken = () => randomBytes(32).toString('base64url')

/** What the database keeps instead of a token. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')
