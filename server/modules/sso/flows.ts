import type { SsoProvider } from '../../../contract/paths.ts'
import { GOOGLE_CALLBACK_TEXTS, SSO_TEXTS, type SsoErrorCode } from '../../../contract/sso.ts'
import { hashToken, randomToken } from '../../auth/tokens.ts'
import type { Database } from '../../db/index.ts'
import { apiError } from '../../http/errors.ts'
import type { Logger } from '../../logger.ts'
import { effectiveLimit, type LicenseRow } from '../account/license.ts'
import type { Oidc, OidcIdentity } from './oidc.ts'
import { type GoogleSettings, isOidc, type SsoRow, type SsoSettingsService } from './settings.ts'

/** A flow waits this long for the provider's return; a one-time code this long for its exchange. */
export const SSO_FLOW_TTL_MS = 10 * 60_000
export const SSO_CODE_TTL_MS = 60_000

/** A refusal that sends the browser to /login?message=<code>. */
export class SsoFailure extends Error {
  override name = 'SsoFailure'
  readonly code: SsoErrorCode
  constructor(code: SsoErrorCode) {
    super(code)
    this.code = code
  }
}

interface UserRecord {
  id: number
  org_id: string
  email: string
  status: string
}

/**
 * Single sign-on and Google sign-in flows: the start stores state, nonce and PKCE verifier
 * (state hashed) for one return within ten minutes; the return is checked by openid-client (AS9)
 * and resolves the person by (issuer, subject); an unknown identity is linked to a person of the
 * organisation only through the organisation's own provider for its own verified domains, or
 * created there when just-in-time creation is on (a seat must be free); the browser then gets a
 * one-time code, exchanged once within a minute for a session.
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

  const googleRedirect = () => `${deps.publicUrl}/auth/social/google/callback`

  async function saveFlow(
    state: string,
    flow: {
      orgId: number | null
      provider: SsoProvider
      verifier: string
      nonce: string
      email: string | null
    },
  ) {
    await pool.query(
      `insert into sso_flows (state_hash, org_id, provider, code_verifier, nonce, email, expires_at)
       values ($1, $2, $3, $4, $5, $6, $7)`,
      [
        hashToken(state),
        flow.orgId,
        flow.provider,
        flow.verifier,
        flow.nonce,
        flow.email,
        new Date(deps.now().getTime() + SSO_FLOW_TTL_MS),
      ],
    )
  }

  /** Takes the flow of a state once: missing, used or expired ones are refused with their code. */
  async function takeFlow(state: string | undefined, provider: SsoProvider) {
    if (!state) throw new SsoFailure('invalid_state')
    type Flow = {
      org_id: string | null
      provider: SsoProvider
      code_verifier: string
      nonce: string
      expires_at: Date
    }
    // taken once: of two returns with one state only one finds it unused
    const { rows } = await pool.query<Flow>(
      `update sso_flows set used_at = $2 where state_hash = $1 and used_at is null
       returning org_id, provider, code_verifier, nonce, expires_at`,
      [hashToken(state), deps.now()],
    )
    if (!rows[0]) {
      const { rows: seen } = await pool.query('select 1 from sso_flows where state_hash = $1', [
        hashToken(state),
      ])
      throw new SsoFailure(seen[0] ? 'invalid_session' : 'invalid_state')
    }
    const flow = rows[0]
    if (!flow) throw new SsoFailure('invalid_state')
    if (flow.expires_at.getTime() <= deps.now().getTime()) throw new SsoFailure('session_expired')
    if (flow.provider !== provider) throw new SsoFailure('invalid_provider')
    if (!flow.code_verifier) throw new SsoFailure('missing_verifier')
    return flow
  }

  /** GET admin/sso/login/{provider}/?email=: the address of the organisation's provider. */
  async function start(provider: SsoProvider, email: string | undefined): Promise<string> {
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
    await saveFlow(started.state, {
      orgId: Number(settings.org_id),
      provider,
      verifier: started.codeVerifier,
      nonce: started.nonce,
      email: email?.trim().toLowerCase() ?? null,
    })
    return started.url
  }

  async function identityUser(identity: OidcIdentity): Promise<UserRecord | undefined> {
    const { rows } = await pool.query<UserRecord>(
      `select u.id, u.org_id, u.email, u.status from user_identities i join users u on u.id = i.user_id
        where i.issuer = $1 and i.subject = $2`,
      [identity.issuer, identity.subject],
    )
    return rows[0]
  }

  async function link(userId: number, identity: OidcIdentity) {
    await pool.query(
      `insert into user_identities (issuer, subject, user_id, email, last_used_at)
       values ($1, $2, $3, $4, now())
       on conflict (issuer, subject) do update set last_used_at = now()`,
      [identity.issuer, identity.subject, userId, identity.email],
    )
  }

  /**
   * The person an organisation's provider vouches for: the linked identity, else (only for the
   * organisation's own domains, and an address the provider verified) the member with that
   * address, else a new member when just-in-time creation is on.
   */
  async function resolveMember(settings: SsoRow, identity: OidcIdentity): Promise<number> {
    const orgId = Number(settings.org_id)
    const known = await identityUser(identity)
    if (known) {
      if (Number(known.org_id) !== orgId || known.status !== 'active')
        throw new SsoFailure('unauthorized')
      return known.id
    }
    const domain = identity.email?.split('@')[1]
    if (!identity.email || !identity.emailVerified || !domain || !settings.domains.includes(domain))
      throw new SsoFailure('unauthorized')
    if (settings.provider === 'google' && identity.hd !== domain)
      throw new SsoFailure('unauthorized')
    const client = await pool.connect()
    try {
      await client.query('begin')
      const { rows: licenseRows } = await client.query<{
        max_users: number
        max_repository: number
        max_questionnaire: number
        max_answers: number
        is_active: boolean
        expiration_date: Date | null
      }>('select * from licenses where org_id = $1 for update', [orgId])
      const { rows: existing } = await client.query<UserRecord>(
        'select id, org_id, email, status from users where lower(email) = $1',
        [identity.email],
      )
      let userId: number
      const member = existing[0]
      if (member) {
        if (Number(member.org_id) !== orgId || member.status !== 'active')
          throw new SsoFailure('unauthorized')
        userId = member.id
      } else {
        if (!settings.jit_provisioning) throw new SsoFailure('unauthorized')
        const license = licenseRows[0]
        const licenseRow: LicenseRow | undefined = license && {
          maxUsers: license.max_users,
          maxRepository: license.max_repository,
          maxQuestionnaire: license.max_questionnaire,
          maxAnswers: license.max_answers,
          isActive: license.is_active,
          expirationDate: license.expiration_date,
        }
        const seats = effectiveLimit(licenseRow, 'max_users', deps.now())
        const { rows: used } = await client.query<{ n: number }>(
          `select count(*)::int as n from users where org_id = $1 and status not in ('removed', 'pending')`,
          [orgId],
        )
        if (seats !== null && (used[0]?.n ?? 0) >= seats) throw new SsoFailure('unauthorized')
        const { rows: created } = await client.query<{ id: string }>(
          `insert into users (org_id, email, first_name, last_name, role, status, email_confirmed_at)
           values ($1, $2, $3, $4, 'contributor', 'active', now()) returning id`,
          [orgId, identity.email, identity.firstName, identity.lastName],
        )
        userId = Number(created[0]?.id)
        await client.query(
          `insert into audit_events (org_id, actor_id, action, target, detail)
           values ($1, null, 'user.created_by_sso', $2, $3)`,
          [orgId, `user:${userId}`, { after: { email: identity.email, role: 'contributor' } }],
        )
      }
      await client.query(
        `insert into user_identities (issuer, subject, user_id, email, last_used_at)
         values ($1, $2, $3, $4, now()) on conflict (issuer, subject) do nothing`,
        [identity.issuer, identity.subject, userId, identity.email],
      )
      await client.query('commit')
      return userId
    } catch (error) {
      await client.query('rollback').catch(() => undefined)
      throw error
    } finally {
      client.release()
    }
  }

  async function issueCode(userId: number) {
    const code = randomToken()
    await pool.query('insert into sso_codes (code_hash, user_id, expires_at) values ($1, $2, $3)', [
      hashToken(code),
      userId,
      new Date(deps.now().getTime() + SSO_CODE_TTL_MS),
    ])
    return code
  }

  /** callback/{provider}/: the provider's return; the address the browser goes to next. */
  async function callback(provider: SsoProvider, currentUrl: URL): Promise<string> {
    const query = currentUrl.searchParams
    if (query.get('error')) {
      log.info({ provider, error: query.get('error') }, 'identity provider refused the sign-in')
      throw new SsoFailure('provider_error')
    }
    const flow = await takeFlow(query.get('state') ?? undefined, provider)
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
    const userId = await resolveMember(settings, identity)
    await link(userId, identity)
    return `${deps.publicUrl}/auth/callback?code=${encodeURIComponent(await issueCode(userId))}`
  }

  /** POST admin/sso/exchange/: a one-time code for a session, once, within a minute. */
  async function exchange(code: string) {
    const { rows } = await pool.query<{ user_id: string }>(
      `update sso_codes set used_at = $2
        where code_hash = $1 and used_at is null and expires_at > $2 returning user_id`,
      [hashToken(code), deps.now()],
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
  async function googleStart() {
    const client = googleClient()
    if (!client) throw apiError(400, SSO_TEXTS.googleDisabled, { code: 'google_disabled' })
    const started = await deps.oidc.start(client, googleRedirect()).catch((error: unknown) => {
      log.warn({ err: String(error) }, 'Google could not be reached')
      throw apiError(502, SSO_TEXTS.googleDisabled, { code: 'provider_error' })
    })
    await saveFlow(started.state, {
      orgId: null,
      provider: 'google',
      verifier: started.codeVerifier,
      nonce: started.nonce,
      email: null,
    })
    return { authorization_url: started.url }
  }

  /**
   * GET admin/auth/social/google/callback/?code&state: tokens and the user's email. An expired or
   * unknown state is 400 with redirect_to_login; someone Quire cannot vouch for is 403.
   */
  async function googleCallback(code: string, state: string, iss?: string) {
    const client = googleClient()
    if (!client) throw apiError(400, SSO_TEXTS.googleDisabled, { code: 'google_disabled' })
    let flow: Awaited<ReturnType<typeof takeFlow>>
    try {
      flow = await takeFlow(state, 'google')
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
    const notAllowed = () => apiError(403, SSO_TEXTS.notAllowed, { code: 'unauthorized' })
    let userId: number | undefined
    const known = await identityUser(identity)
    if (known) {
      if (known.status !== 'active') throw notAllowed()
      userId = known.id
    } else {
      // an unknown Google account: only through an organisation that signs in with Google for its domain
      const settings = identity.email ? await deps.settings.forEmail(identity.email) : undefined
      if (settings?.provider !== 'google') throw notAllowed()
      try {
        userId = await resolveMember(settings, identity)
      } catch (error) {
        if (error instanceof SsoFailure) throw notAllowed()
        throw error
      }
    }
    await link(userId, identity)
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
    resolveMember,
    link,
    issueCode,
  }
}

export type SsoFlows = ReturnType<typeof createSsoFlows>
