import * as client from 'openid-client'
import { fetch as undiciFetch } from 'undici'
import { checkUrl, createGuardedAgent } from '../../net/safe-fetch.ts'

/**
 * OpenID Connect through openid-client: discovery of any standard issuer (cached for a while),
 * authorization with state, nonce and PKCE (S256), and the code grant that checks them with the
 * ID token's issuer, audience, signature and expiry (AS9). Every request to the identity provider
 * goes through the guarded agent: an admin's issuer cannot reach private addresses (SS1-SS4),
 * except the host:port pairs of URL_FETCH_ALLOW (tests' loopback providers), which may also be
 * plain http.
 */

const DISCOVERY_TTL_MS = 10 * 60_000

export interface OidcClientSettings {
  issuer: string
  clientId: string
  clientSecret: string
}

export interface OidcStart {
  url: string
  state: string
  nonce: string
  codeVerifier: string
}

export interface OidcIdentity {
  issuer: string
  /** The stable key of the account: (tid, oid) for Microsoft Entra, else sub (AS9). */
  subject: string
  email: string | null
  emailVerified: boolean
  firstName: string
  lastName: string
  /** Google's hosted domain, Entra's tenant. */
  hd: string | null
  tid: string | null
}

export class OidcError extends Error {
  override name = 'OidcError'
  readonly code: 'discovery' | 'provider_error' | 'invalid_state' | 'validation'
  constructor(code: OidcError['code'], message: string) {
    super(message)
    this.code = code
  }
}

export function createOidc(options: { allow: string[] }) {
  const agent = createGuardedAgent({ allow: options.allow })
  const cache = new Map<string, { at: number; config: Promise<client.Configuration> }>()

  const guardedFetch: client.CustomFetch = (url, init) => {
    const checked = checkUrl(url, options.allow)
    if (!checked.ok) return Promise.reject(checked.error)
    return undiciFetch(url, {
      ...(init as object),
      dispatcher: agent,
      redirect: 'manual',
    }) as unknown as Promise<Response>
  }

  const allowedPlainHttp = (url: URL) =>
    url.protocol === 'http:' &&
    options.allow.includes(`${url.hostname}:${url.port || '80'}`.toLowerCase())

  /** The provider's configuration for a client, discovered from its issuer. */
  function configOf(settings: OidcClientSettings): Promise<client.Configuration> {
    const key = `${settings.issuer}\n${settings.clientId}\n${settings.clientSecret}`
    const cached = cache.get(key)
    if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.config
    let issuer: URL
    try {
      issuer = new URL(settings.issuer)
    } catch {
      return Promise.reject(new OidcError('discovery', 'The issuer is not a URL'))
    }
    if (issuer.protocol !== 'https:' && !allowedPlainHttp(issuer))
      return Promise.reject(new OidcError('discovery', 'The issuer must be an https:// URL'))
    const config = client
      .discovery(
        issuer,
        settings.clientId,
        { client_secret: settings.clientSecret },
        client.ClientSecretPost(settings.clientSecret),
        {
          [client.customFetch]: guardedFetch,
          ...(allowedPlainHttp(issuer) && { execute: [client.allowInsecureRequests] }),
          timeout: 10,
        },
      )
      .catch((error: unknown) => {
        cache.delete(key)
        throw new OidcError('discovery', error instanceof Error ? error.message : String(error))
      })
    cache.set(key, { at: Date.now(), config })
    return config
  }

  /** Where the browser goes: the provider's sign-in with state, nonce and an S256 challenge. */
  async function start(
    settings: OidcClientSettings,
    redirectUri: string,
    extra: Record<string, string> = {},
  ): Promise<OidcStart> {
    const config = await configOf(settings)
    const state = client.randomState()
    const nonce = client.randomNonce()
    const codeVerifier = client.randomPKCECodeVerifier()
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid email profile',
      response_type: 'code',
      state,
      nonce,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      ...extra,
    })
    return { url: url.href, state, nonce, codeVerifier }
  }

  /**
   * The provider's return: exchanges the code (PKCE), checks state, nonce and the ID token
   * (issuer, audience, signature, expiry), and reads the account.
   */
  async function complete(
    settings: OidcClientSettings,
    currentUrl: URL,
    expected: { state: string; nonce: string; codeVerifier: string },
  ): Promise<OidcIdentity> {
    const config = await configOf(settings)
    let claims: client.IDToken | undefined
    try {
      const tokens = await client.authorizationCodeGrant(config, currentUrl, {
        expectedState: expected.state,
        expectedNonce: expected.nonce,
        pkceCodeVerifier: expected.codeVerifier,
        idTokenExpected: true,
      })
      claims = tokens.claims()
    } catch (error) {
      throw new OidcError('validation', error instanceof Error ? error.message : String(error))
    }
    if (!claims) throw new OidcError('validation', 'The provider sent no ID token')
    const text = (value: unknown) => (typeof value === 'string' ? value : null)
    const tid = text(claims.tid)
    const oid = text(claims.oid)
    // only the email claim, and only when the provider says it verified it (Entra's optional
    // xms_edov: the domain's owner verified it); never preferred_username or another display name
    const email = text(claims.email)
    return {
      issuer: claims.iss,
      subject: tid && oid ? `${tid}:${oid}` : claims.sub,
      email: email?.includes('@') ? email.toLowerCase() : null,
      emailVerified: claims.email_verified === true || claims.xms_edov === true,
      firstName: text(claims.given_name) ?? '',
      lastName: text(claims.family_name) ?? '',
      hd: text(claims.hd),
      tid,
    }
  }

  return { start, complete, configOf }
}

export type Oidc = ReturnType<typeof createOidc>
