import { type Context, Hono } from 'hono'
import { z } from 'zod'
import { API_PREFIX, paths } from '../../../contract/paths.ts'
import {
  fileTrustSchema,
  qaTrustSchema,
  TRUST_TEXTS,
  trustSettingsUpdateSchema,
} from '../../../contract/trust.ts'
import type { AuthEnv, Authenticator } from '../../auth/middleware.ts'
import { requireAuth } from '../../auth/middleware.ts'
import type { Permit } from '../../auth/permissions.ts'
import type { RateLimiter } from '../../auth/rate-limit.ts'
import { clientAddress } from '../../http/client-address.ts'
import { sendDownload } from '../../http/download.ts'
import { apiError } from '../../http/errors.ts'
import { jsonBody, params } from '../../http/validate.ts'
import { TRUST_CSP, trustNotFoundHtml, trustPageHtml } from './html.ts'
import { type TrustService, trustNotFound } from './service.ts'

const idParams = z.object({ id: z.coerce.number().int().positive() })
const at = (path: string) =>
  decodeURIComponent(path).replace('{id}', ':id{[0-9]+}').replace('{slug}', ':slug')
const slugParams = z.object({ slug: z.string().min(1).max(100) })
const downloadParams = slugParams.extend({ id: z.coerce.number().int().positive() })

/** Anyone's reads of public pages, per address: generous for people, a wall for scrapers. */
const PUBLIC_RULE = { limit: 120, windowMs: 60_000 }

/**
 * The trust centre (issue 40). Its admins keep the page (organization.manage); those who curate
 * the library (admins and approvers) say what of the repository and the library is on it. The
 * public side needs no session, carries none, answers an unknown slug, an unpublished page and a
 * document not on it alike, and is rate-limited per address.
 */
export function trustRoutes(options: {
  auth: Authenticator
  permit: Permit
  service: TrustService
  limiter: RateLimiter
  trustProxy: boolean
}) {
  const { service, permit } = options
  const app = new Hono<AuthEnv>()
  const T = paths.trust
  const signedIn = requireAuth(options.auth)

  app.get(T.settings, signedIn, permit('organization.manage'), async (c) =>
    c.json(await service.settings(c.get('auth').org.id)),
  )
  app.post(T.settings, signedIn, permit('organization.manage'), async (c) => {
    const body = await jsonBody(c, trustSettingsUpdateSchema)
    const auth = c.get('auth')
    return c.json(await service.update(auth.org.id, auth.user.id, body))
  })
  app.post(at(T.file('{id}')), signedIn, permit('library.manage'), async (c) => {
    const { id } = params(c, idParams)
    const body = await jsonBody(c, fileTrustSchema)
    const auth = c.get('auth')
    return c.json(await service.setFileVisibility(auth.org.id, auth.user.id, id, body.visibility))
  })
  app.post(at(T.qa('{id}')), signedIn, permit('library.manage'), async (c) => {
    const { id } = params(c, idParams)
    const body = await jsonBody(c, qaTrustSchema)
    const auth = c.get('auth')
    return c.json(await service.setQaVisibility(auth.org.id, auth.user.id, id, body.visibility))
  })

  const limited = async (c: Context) => {
    const key = `trust-public:${clientAddress(c, options.trustProxy)}`
    const state = await options.limiter.hit(key, PUBLIC_RULE)
    if (state.limited)
      throw apiError(
        429,
        TRUST_TEXTS.tooMany,
        { code: 'rate_limited' },
        { 'Retry-After': String(state.retryAfterS) },
      )
    // the public page is the same for everyone, and no staff session rides along
    c.header('Cache-Control', 'no-store')
    c.header('Referrer-Policy', 'no-referrer')
  }
  const P = paths.publicTrust
  app.get(at(P.page('{slug}')), async (c) => {
    await limited(c)
    const { slug } = params(c, slugParams)
    return c.json(await service.page(slug))
  })
  app.get(at(P.download('{slug}', '{id}')), async (c) => {
    await limited(c)
    const parsed = downloadParams.safeParse(c.req.param())
    if (!parsed.success) throw trustNotFound()
    return sendDownload(c, await service.publicDocument(parsed.data.slug, parsed.data.id))
  })
  return app
}

/**
 * GET /trust/{slug}: the page as HTML, outside the API (issue 40). Unknown, unpublished and
 * withdrawn pages answer alike (404, noindex); the page carries a strict CSP and no session.
 */
export function trustPageRoutes(options: {
  service: TrustService
  limiter: RateLimiter
  trustProxy: boolean
}) {
  const app = new Hono()
  app.get('/trust/:slug', async (c) => {
    const key = `trust-public:${clientAddress(c, options.trustProxy)}`
    const state = await options.limiter.hit(key, PUBLIC_RULE)
    c.header('Content-Security-Policy', TRUST_CSP)
    c.header('X-Content-Type-Options', 'nosniff')
    c.header('Referrer-Policy', 'no-referrer')
    c.header('Cache-Control', 'no-store')
    if (state.limited) {
      c.header('Retry-After', String(state.retryAfterS))
      return c.text(TRUST_TEXTS.tooMany, 429)
    }
    const slug = c.req.param('slug')
    try {
      const page = await options.service.page(slug)
      return c.html(
        trustPageHtml(page, (id) => `${API_PREFIX}${paths.publicTrust.download(page.slug, id)}`),
      )
    } catch (error) {
      if ((error as { status?: number }).status === 404) return c.html(trustNotFoundHtml(), 404)
      throw error
    }
  })
  return app
}
