import { generateKeyPairSync } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { decodeJwt, SignJWT } from 'jose'
import Provider from 'oidc-provider'

/**
 * A real OpenID Connect provider (oidc-provider) on loopback, playing Google or Microsoft Entra in
 * the tests: its sign-in page is skipped (the account set with `signInAs` signs in at once), every
 * other step (discovery, authorization with PKCE, the code grant, signed ID tokens) is the real
 * protocol.
 */

export interface IdpAccount {
  sub: string
  email?: string
  email_verified?: boolean
  given_name?: string
  family_name?: string
  /** Google's hosted domain. */
  hd?: string
  /** Entra's tenant and object ids. */
  tid?: string
  oid?: string
  /** A display name that looks like an address (never to be trusted as one). */
  preferred_username?: string
}

export interface IdpClient {
  client_id: string
  client_secret: string
  redirect_uris: string[]
}

export interface TestIdp {
  issuer: string
  /** host:port, for URL_FETCH_ALLOW. */
  hostPort: string
  signInAs(account: IdpAccount): void
  /**
   * The next ID token the token endpoint gives is changed (another audience, another nonce) and
   * signed again with the provider's own key: a provider that misbehaves, for the refusals (AS9).
   */
  tamperNextIdToken(change: (claims: Record<string, unknown>) => Record<string, unknown>): void
  close(): Promise<void>
}

/**
 * Who signs in: the account set with `signInAs` (or POSTed as JSON to /__next-account by a
 * journey in another process); with none set, the address of the request's login_hint, verified.
 */
export async function startIdp(
  clients: IdpClient[],
  options: { port?: number } = {},
): Promise<TestIdp> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const issuer = `http://127.0.0.1:${port}`
  const accounts = new Map<string, IdpAccount>()
  let current: IdpAccount | null = null

  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  let tamper: ((claims: Record<string, unknown>) => Record<string, unknown>) | null = null
  const provider = new Provider(issuer, {
    jwks: {
      keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test', alg: 'RS256', use: 'sig' }],
    },
    clients: clients.map((client) => ({
      ...client,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
    })),
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name', 'hd', 'tid', 'oid', 'preferred_username'],
    },
    // the claims of the scopes go into the ID token itself, as Google's and Entra's do
    conformIdTokenClaims: false,
    findAccount: async (_ctx, sub) => ({
      accountId: sub,
      claims: async () => ({ ...(accounts.get(sub) ?? { sub }) }),
    }),
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['quire-test-idp-cookie-key'] },
    ttl: {
      Session: 60,
      Grant: 60,
      Interaction: 600,
      AuthorizationCode: 60,
      IdToken: 600,
      AccessToken: 600,
    },
  })
  const handle = provider.callback()

  server.on('request', async (req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/__next-account' && req.method === 'POST') {
      let body = ''
      for await (const chunk of req) body += chunk
      current = JSON.parse(body) as IdpAccount
      res.end('ok')
      return
    }
    if (req.url?.startsWith('/token') && tamper) {
      const change = tamper
      tamper = null
      const chunks: Buffer[] = []
      const write = res.write.bind(res)
      const end = res.end.bind(res)
      res.write = ((chunk: Buffer | string) => {
        chunks.push(Buffer.from(chunk))
        return true
      }) as typeof res.write
      res.end = ((chunk?: Buffer | string) => {
        if (chunk) chunks.push(Buffer.from(chunk))
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
        const claims = decodeJwt(body.id_token)
        void new SignJWT(change({ ...claims }))
          .setProtectedHeader({ alg: 'RS256', kid: 'test' })
          .sign(privateKey)
          .then((token) => {
            const text = JSON.stringify({ ...body, id_token: token })
            res.setHeader('content-length', Buffer.byteLength(text))
            write(text)
            end()
          })
        return res
      }) as typeof res.end
      return handle(req, res)
    }
    if (!req.url?.startsWith('/interaction/')) return handle(req, res)
    try {
      const details = await provider.interactionDetails(req, res)
      const hint = String(details.params.login_hint ?? '').toLowerCase()
      const account: IdpAccount = current ?? {
        sub: `sub-${hint}`,
        email: hint,
        email_verified: true,
        hd: hint.split('@')[1],
        given_name: 'Single',
        family_name: 'Sign-On',
      }
      current = null
      accounts.set(account.sub, account)
      const grant = new provider.Grant({
        accountId: account.sub,
        clientId: String(details.params.client_id),
      })
      grant.addOIDCScope('openid email profile')
      const grantId = await grant.save()
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: account.sub }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      )
    } catch (error) {
      res.statusCode = 500
      res.end(String(error))
    }
  })

  return {
    issuer,
    hostPort: `127.0.0.1:${port}`,
    tamperNextIdToken(change) {
      tamper = change
    },
    signInAs(account) {
      current = account
      accounts.set(account.sub, account)
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** Follows redirects like a browser (cookies kept per host) until one leaves for `stopAt`. */
export async function browse(start: string, stopAt: string, maxHops = 10): Promise<URL> {
  const jar = new Map<string, Map<string, string>>()
  let url = new URL(start)
  for (let hop = 0; hop < maxHops; hop += 1) {
    if (url.href.startsWith(stopAt)) return url
    const cookies = jar.get(url.host)
    const res = await fetch(url, {
      redirect: 'manual',
      headers: cookies ? { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {},
    })
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const [name, ...value] = (pair ?? '').split('=')
      if (!name) continue
      const host = jar.get(url.host) ?? new Map<string, string>()
      host.set(name.trim(), value.join('='))
      jar.set(url.host, host)
    }
    const location = res.headers.get('location')
    if (!location)
      throw new Error(`no redirect from ${url.href}: ${res.status} ${await res.text()}`)
    url = new URL(location, url)
  }
  throw new Error(`too many redirects from ${start}`)
}
