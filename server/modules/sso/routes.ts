import type { Context } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import { z } from 'zod'
import { type SsoDiscoverResponse, ssoDiscoverRequestSchema } from '../../../contract/auth.ts'
import { ERROR_CODES } from '../../../contract/errors.ts'
import { paths, SSO_PROVIDERS, type SsoProvider } from '../../../contract/paths.ts'
import {
  GOOGLE_CALLBACK_TEXTS,
  googleCallbackQuerySchema,
  SSO_TEXTS,
  type SsoProvidersStatus,
  ssoExchangeRequestSchema,
  ssoLoginQuerySchema,
  ssoSettingsUpdateSchema,
} from '../../../contract/sso.ts'
import type { Authenticator } from '../../auth/middleware.ts'
import type { Permit } from '../../auth/permissions.ts'
import type { RateLimiter, RateRule } from '../../auth/rate-limit.ts'
import { clientAddress } from '../../http/client-address.ts'
import { apiError } from '../../http/errors.ts'
import { areaRouter, orgOf } from '../../http/route-kit.ts'
import { jsonBody, query } from '../../http/validate.ts'
import { type Browser, SSO_FLOW_TTL_MS, SsoFailure } from './flows.ts'
import type { SsoService } from './service.ts'
import type { GoogleSettings } from './settings.ts'

const providerParams = z.object({ provider: z.enum(SSO_PROVIDERS) })

/** The browser binding cookie of sign-in flows (flows.ts `Browser`): only the API reads it. */
export const SSO_BINDING_COOKIE = 'quire_sso'

/** The calls of spec section 7 'SSO' and Google sign-in. */
export function ssoRoutes(options: {
  auth: Authenticator
  permit: Permit
  sso: SsoService
  publicUrl: string
  google?: GoogleSettings
  limiter: RateLimiter
  /** Sign-in starts per client address. */
  startLimit: RateRule
  trustProxy: boolean
}) {
  const { settings, flows, samlFlows } = options.sso
  const browserOf = (c: Context): Browser => ({ secret: getCookie(c, SSO_BINDING_COOKIE) })
  const bind = (c: Context, secret: string) =>
    setCookie(c, SSO_BINDING_COOKIE, secret, {
      httpOnly: true,
      sameSite: 'Lax',
      secure: options.publicUrl.startsWith('https:'),
      path: '/api/',
      maxAge: SSO_FLOW_TTL_MS / 1000,
    })
  /** Each start writes a flow: per client address, at most `startLimit` (429 past it). */
  const limitStarts = async (c: Context) => {
    const address = clientAddress(c, options.trustProxy)
    const state = await options.limiter.hit(`sso-start:${address}`, options.startLimit)
    if (state.limited)
      throw apiError(
        429,
        SSO_TEXTS.tooManyStarts,
        { msg: SSO_TEXTS.tooManyStarts, code: ERROR_CODES.rateLimited },
        { 'Retry-After': String(state.retryAfterS) },
      )
  }
  const app = areaRouter({ auth: options.auth })
  const toLogin = (code: string) => `${options.publicUrl}/login?message=${encodeURIComponent(code)}`
  const providerOf = (raw: string | undefined): SsoProvider | null => {
    const parsed = providerParams.safeParse({ provider: raw })
    return parsed.success ? parsed.data.provider : null
  }

  app.open.post(paths.sso.discover, async (c) => {
    const { email } = await jsonBody(c, ssoDiscoverRequestSchema)
    const found = await settings.forEmail(email)
    const body: SsoDiscoverResponse = found
      ? {
          sso_enabled: true,
          provider: found.provider,
          organization: found.org_name,
          result: { provider: found.provider, organization: found.org_name },
        }
      : { sso_enabled: false }
    return c.json(body)
  })

  app.open.get(paths.sso.providersStatus, (c) => {
    const body: SsoProvidersStatus = {
      google: { enabled: Boolean(options.google) },
      providers: SSO_PROVIDERS.filter((provider) => provider !== 'google' || options.google),
    }
    return c.json(body)
  })

  // the browser's navigation to the organisation's provider, and the provider's return
  app.open.get(decodeURIComponent(paths.sso.login(':provider' as SsoProvider)), async (c) => {
    const provider = providerOf(c.req.param('provider'))
    if (!provider) return c.redirect(toLogin('invalid_provider'), 302)
    const { email } = query(c, ssoLoginQuerySchema)
    await limitStarts(c)
    try {
      const started =
        provider === 'microsoft_saml'
          ? await samlFlows.start(email, browserOf(c))
          : await flows.start(provider, email, browserOf(c))
      bind(c, started.secret)
      return c.redirect(started.url, 302)
    } catch (error) {
      if (error instanceof SsoFailure) return c.redirect(toLogin(error.code), 302)
      c.get('log').error({ err: error }, 'sso start failed')
      return c.redirect(toLogin('system_error'), 302)
    }
  })
  app.open.get(decodeURIComponent(paths.sso.callback(':provider' as SsoProvider)), async (c) => {
    const provider = providerOf(c.req.param('provider'))
    if (!provider) return c.redirect(toLogin('invalid_provider'), 302)
    try {
      return c.redirect(await flows.callback(provider, new URL(c.req.url), browserOf(c)), 302)
    } catch (error) {
      if (error instanceof SsoFailure) return c.redirect(toLogin(error.code), 302)
      c.get('log').error({ err: error }, 'sso callback failed')
      return c.redirect(toLogin('system_error'), 302)
    }
  })
  app.open.post(decodeURIComponent(paths.sso.callback('microsoft_saml')), async (c) => {
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>)
    const text = (value: unknown) =>
      typeof value === 'string' && value.length < 500_000 ? value : undefined
    try {
      const address = await samlFlows.callback({
        SAMLResponse: text(form.SAMLResponse),
        RelayState: text(form.RelayState),
      })
      return c.redirect(address, 302)
    } catch (error) {
      if (error instanceof SsoFailure) return c.redirect(toLogin(error.code), 302)
      c.get('log').error({ err: error }, 'saml callback failed')
      return c.redirect(toLogin('system_error'), 302)
    }
  })
  app.open.post(paths.sso.exchange, async (c) => {
    const { code } = await jsonBody(c, ssoExchangeRequestSchema)
    return c.json(await flows.exchange(code, browserOf(c)))
  })

  app.open.get(paths.auth.googleStart, async (c) => {
    await limitStarts(c)
    const started = await flows.googleStart(browserOf(c))
    bind(c, started.secret)
    return c.json(started.body)
  })
  app.open.get(paths.auth.googleCallback, async (c) => {
    const parsed = googleCallbackQuerySchema.safeParse(c.req.query())
    if (!parsed.success)
      throw apiError(400, GOOGLE_CALLBACK_TEXTS.badRequest, { code: 'validation_error' })
    const { code, state, iss } = parsed.data
    return c.json(await flows.googleCallback(code, state, iss, browserOf(c)))
  })

  const admins = options.permit('organization.manage')
  app.get(paths.sso.settings, admins, async (c) => c.json(await settings.get(orgOf(c))))
  app.post(paths.sso.settingsUpdate, admins, async (c) => {
    const body = await jsonBody(c, ssoSettingsUpdateSchema)
    const saved = await settings.update(c.get('auth'), body, c.get('requestId'))
    return c.json({ data: saved })
  })
  app.post(paths.sso.test, admins, async (c) => {
    const body = await jsonBody(c, ssoSettingsUpdateSchema)
    return c.json(await settings.testInput(orgOf(c), body))
  })

  return app.app
}
