import type { SsoProvider } from '../../../contract/paths.ts'
import { GOOGLE_CALLBACK_TEXTS, SSO_TEXTS } from '../../../contract/sso.ts'
import { hashToken, randomToken } from '../../auth/tokens.ts'
import type { Database } from '../../db/index.ts'
import { apiError } from '../../http/errors.ts'
import type { Logger } from '../../logger.ts'
import { SsoFailure } from './failure.ts'
import { createSsoMembers } from './members.ts'
import type { Oidc } from './oidc.ts'
import { type GoogleSettings, isOidc, type SsoSettingsService } from './settings.ts'

/** A flow waits this long for the provider's return; a one-time code this long for its exchange. */
export const SSO_FLOW_TTL_MS = 10 * 60_000
export const SSO_CODE_TTL_MS = 60_000

export { SsoFailure }

/**
 * The browser a flow belongs to: the secret of its binding cookie (HttpOnly, SameSite=Lax), kept
 * or made at the start; the flow and its one-time code store only its hash. A return or an
 * exchange from another browser (a victim sent the attacker's callback link) is refused.
 */
export interface Browser {
  secret: string | undefined
}

const BROWSER_SECRET = /^[A-Za-z0-9_-]{43}$/
/** The binding secret a start uses: the browser's own when it has one, else a new one. */
export const bindingSecret = (browser: Browser) =>
  browser.secret && BROWSER_SECRET.test(browser.secret) ? browser.secret : randomToken()
const browserHash = (browser: Browser) =>
  browser.secret && BROWSER_SECRET.test(browser.secret) ? hashToken(browser.secret) : null

/**
 * Single sign-on and Google sign-in flows: the start stores state, nonce and PKCE verifier
 * (state hashed) and the starting browser's binding for one return within ten minutes; the return
 * is checked by openid-client (AS9) and resolves the person by the identity of the organisation's
 * own provider (members.ts); the browser then gets a one-time code, exchanged once within a
 * minute, by the same browser, for a session.
 */
export function createSsoFlows(deps: {
  database: Database
  oidc: Oidc
  settings: SsoSettingsService
  google?: GoogleSettings
  publicUrl: string
  logger: Logger
  now: () => Date
  startSession: (userId: number) => Promise<{ access: string; refresh: string; email: string }>
}) {
  const { pool } = deps.database
  const log = deps.logger.child({ component: 'sso' })
  const members = createSsoMembers(deps)

  const googleRedirect = () => `${deps.publicUrl}/auth/social/google/callback`

  async function saveFlow(
    state: string,
    flow: {
      orgId: number | null
      provider: SsoProvider
      verifier: string
      nonce: string
      email: string | null
      secret: string
    },
  ) {
    await pool.query(
      `insert into sso_flows (state_hash, org_id, provider, code_verifier, nonce, email, browser_hash,
                              expires_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        hashToken(state),
        flow.orgId,
        flow.provider,
        flow.verifier,
        flow.nonce,
        flow.email,
        hashToken(flow.secret),
        new Date(deps.now().getTime() + SSO_FLOW_TTL_MS),
      ],
    )
  }

  /**
   * Takes the flow of a state once: missing, used, expired ones, and (unless `browser` is
   * 'cross-site': a SAML POST carries no SameSite=Lax cookie, its code is checked at the exchange)
   * one started by another browser, are refused with their code. A refused browser does not use
   * the flow up.
   */
  async function takeFlow(
    state: string | undefined,
    provider: SsoProvider,
    browser: Browser | 'cross-site',
  ) {
    if (!state) throw new SsoFailure('invalid_state')
    type Flow = {
      org_id: string | null
      provider: SsoProvider
      code_verifier: string
      nonce: string
      browser_hash: string | null
      expires_at: Date
    }
    const bound = browser === 'cross-site' ? null : browserHash(browser)
    // taken once: of two returns with one state only one finds it unused
    const { rows } = await pool.query<Flow>(
      `update sso_flows set used_at = $2
        where state_hash = $1 and used_at is null and ($3::boolean or browser_hash = $4)
       returning org_id, provider, code_verifier, nonce, browser_hash, expires_at`,
      [hashToken(state), deps.now(), browser === 'cross-site', bound],
    )
    const flow = rows[0]
    if (!flow) {
      const { rows: seen } = await pool.query('select 1 from sso_flows where state_hash = $1', [
        hashToken(state),
      ])
      if (seen[0] && browser !== 'cross-site')
        log.warn({ provider }, 'sso return from a browser that did not start the flow')
      throw new SsoFailure(seen[0] ? 'invalid_session' : 'invalid_state')
    }
    if (flow.expires_at.getTime() <= deps.now().getTime()) throw new SsoFailure('session_expired')
    if (flow.provider !== provider) throw new SsoFailure('invalid_provider')
    if (!flow.code_verifier) throw new SsoFailure('missing_verifier')
    return flow
  }

  /** GET admin/sso/login/{provider}/?email=: the address of the organisation's provider. */
  async function start(provider: SsoProvider, email: string | undefined, browser: Browser) {
    const settings = email ? await deps.settings.forEmail(email) : undefined
    if (!settings) throw new SsoFailure('sso_not_enabled')
    if (settings.provider !== provider || !isOidc(provider))
      throw new SsoFailure('invalid_provider')
    const client = deps.settings.clientOf(settings)
    if (!client) throw new SsoFailure('sso_not_enabled')
    const started = await deps.oidc
      .start(client, deps.settings.redirectUri(provider), {
        ...(email && { login_hint: email }),
        ...(provider === 'google' && settings.domains[0] && { hd: settings.domains[0] }),
      })
      .catch((error: unknown) => {
        log.warn({ err: String(error), provider }, 'identity provider could not be reached')
        throw new SsoFailure('provider_error')
      })
    const secret = bindingSecret(browser)
    await saveFlow(started.state, {
      orgId: Number(settings.org_id),
      provider,
      verifier: started.codeVerifier,
      nonce: started.nonce,
      email: email?.trim().toLowerCase() ?? null,
      secret,
    })
    return { url: started.url, secret }
  }

  async function issueCode(userId: number, boundTo: string | null) {
    const code = randomToken()
    await pool.query(
      `insert into sso_codes (code_hash, user_id, browser_hash, expires_at)
       values ($1, $2, $3, $4)`,
      [hashToken(code), userId, boundTo, new Date(deps.now().getTime() + SSO_CODE_TTL_MS)],
    )
    return `${deps.publicUrl}/auth/callback?code=${encodeURIComponent(code)}`
  }

  /** callback/{provider}/: the provider's return; the address the browser goes to next. */
  async function callback(provider: SsoProvider, currentUrl: URL, browser: Browser) {
    const query = currentUrl.searchParams
    if (query.get('error')) {
      log.info({ provider, error: query.get('error') }, 'identity provider refused the sign-in')
      throw new SsoFailure('provider_error')
    }
    const flow = await takeFlow(query.get('state') ?? undefined, provider, browser)
    const settings = flow.org_id ? await deps.settings.row(Number(flow.org_id)) : undefined
    if (!settings?.enabled || settings.provider !== provider)
      throw new SsoFailure('sso_not_enabled')
    const client = deps.settings.clientOf(settings)
    if (!client) throw new SsoFailure('sso_not_enabled')
    // the provider checks the redirect_uri: the configured address, not the one this node saw
    const returned = new URL(deps.settings.redirectUri(provider))
    returned.search = currentUrl.search
    const identity = await deps.oidc
      .complete(client, returned, {
        state: query.get('state') ?? '',
        nonce: flow.nonce,
        codeVerifier: flow.code_verifier,
      })
      .catch((error: unknown) => {
        log.warn({ err: String(error), provider }, 'sso response refused')
        throw new SsoFailure('provider_error')
      })
    // openid-client refused any ID token whose iss is not the configured issuer's (discovery)
    const userId = await members.resolve(settings, identity)
    return issueCode(userId, flow.browser_hash)
  }

  /** POST admin/sso/exchange/: a one-time code for a session, once, within a minute, same browser. */
  async function exchange(code: string, browser: Browser) {
    const { rows } = await pool.query<{ user_id: string }>(
      `update sso_codes set used_at = $2
        where code_hash = $1 and used_at is null and expires_at > $2 and browser_hash = $3
       returning user_id`,
      [hashToken(code), deps.now(), browserHash(browser)],
    )
    const row = rows[0]
    if (!row)
      throw apiError(400, SSO_TEXTS.codeInvalid, {
        msg: SSO_TEXTS.codeInvalid,
        code: 'invalid_code',
      })
    const session = await deps.startSession(Number(row.user_id))
    return { access: session.access, refresh: session.refresh, user_email: session.email }
  }

  /* ------------------------------------------------------------ Google sign-in */

  const googleClient = () =>
    deps.google
      ? {
          issuer: deps.google.issuer,
          clientId: deps.google.clientId,
          clientSecret: deps.google.clientSecret,
        }
      : undefined

  /** GET admin/auth/social/google/: Google's sign-in address. */
  async function googleStart(browser: Browser) {
    const client = googleClient()
    if (!client) throw apiError(400, SSO_TEXTS.googleDisabled, { code: 'google_disabled' })
    const started = await deps.oidc.start(client, googleRedirect()).catch((error: unknown) => {
      log.warn({ err: String(error) }, 'Google could not be reached')
      throw apiError(502, SSO_TEXTS.googleDisabled, { code: 'provider_error' })
    })
    const secret = bindingSecret(browser)
    await saveFlow(started.state, {
      orgId: null,
      provider: 'google',
      verifier: started.codeVerifier,
      nonce: started.nonce,
      email: null,
      secret,
    })
    return { body: { authorization_url: started.url }, secret }
  }

  /**
   * GET admin/auth/social/google/callback/?code&state: tokens and the user's email. An expired or
   * unknown state (or another browser's) is 400 with redirect_to_login; someone Quire cannot vouch
   * for, or whose organisation requires another provider, is 403.
   */
  async function googleCallback(
    code: string,
    state: string,
    iss: string | undefined,
    browser: Browser,
  ) {
    const client = googleClient()
    if (!client) throw apiError(400, SSO_TEXTS.googleDisabled, { code: 'google_disabled' })
    let flow: Awaited<ReturnType<typeof takeFlow>>
    try {
      flow = await takeFlow(state, 'google', browser)
    } catch {
      throw apiError(400, SSO_TEXTS.sessionExpired, {
        msg: SSO_TEXTS.sessionExpired,
        code: 'session_expired',
        detail: SSO_TEXTS.sessionExpired,
        ...({ redirect_to_login: true } as object),
      })
    }
    const url = new URL(googleRedirect())
    url.searchParams.set('code', code)
    url.searchParams.set('state', state)
    // the page passes Google's iss when it came (RFC 9207); one issuer only, so it is that one
    url.searchParams.set('iss', iss ?? client.issuer)
    const identity = await deps.oidc
      .complete(client, url, { state, nonce: flow.nonce, codeVerifier: flow.code_verifier })
      .catch((error: unknown) => {
        log.warn({ err: String(error) }, 'Google response refused')
        throw apiError(400, GOOGLE_CALLBACK_TEXTS.badRequest, { code: 'provider_error' })
      })
    const userId = await members.resolveGoogle(identity)
    const session = await deps.startSession(userId)
    return { access: session.access, refresh: session.refresh, user: { email: session.email } }
  }

  return {
    start,
    callback,
    exchange,
    googleStart,
    googleCallback,
    // for the SAML flow (saml-flows.ts)
    saveFlow,
    takeFlow,
    resolveMember: members.resolve,
    issueCode,
  }
}

export type SsoFlows = ReturnType<typeof createSsoFlows>
