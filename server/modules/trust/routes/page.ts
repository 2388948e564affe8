import { type Context, Hono } from 'hono'
import { getCookie } from 'hono/cookie'
import { API_PREFIX, paths } from '../../../../contract/paths.ts'
import { TRUST_REQUEST_TEXTS, TRUST_TEXTS } from '../../../../contract/trust.ts'
import type { RateLimiter } from '../../../auth/rate-limit.ts'
import { clientAddress } from '../../../http/client-address.ts'
import { createMemoryLimiter } from '../../../http/memory-limit.ts'
import {
  type PageVisit,
  TRUST_CSP,
  TRUST_SHELL_CSP,
  trustNotFoundHtml,
  trustPageHtml,
} from '../html.ts'
import type { TrustRequests } from '../requests.ts'
import type { TrustService } from '../service.ts'
import type { TrustShell } from '../shell.ts'
import type { ViewCounter } from '../views.ts'
import { PUBLIC_RULE, READER_COOKIE, setReaderCookie } from './reader.ts'

/**
 * GET /trust/{slug}: the page as HTML, outside the API (issue 40). Unknown, unpublished and
 * withdrawn pages answer alike (404, noindex); the page carries a strict CSP and no session.
 */
export function trustPageRoutes(options: {
  service: TrustService
  requests: TrustRequests
  limiter: RateLimiter
  trustProxy: boolean
  /** Whether the site is served over https (the cookie is then Secure). */
  secure: boolean
  views?: ViewCounter
  /** The built web app's tags (shell.ts): when there are, the app mounts on the page. */
  shell?: () => TrustShell | null
}) {
  const app = new Hono()
  // reading the page is limited in this node's memory (a guard against scrapers, no database
  // round trip per view); the calls that write or answer keep the shared limiter
  const views = createMemoryLimiter(PUBLIC_RULE)
  /** Headers of every answer of the page; null when the address asked too often. */
  const guard = async (c: Context, shared = false) => {
    const key = `trust-public:${clientAddress(c, options.trustProxy)}`
    const state = shared ? await options.limiter.hit(key, PUBLIC_RULE) : views.hit(key)
    // the page itself may carry the web app (render); anything else runs nothing
    c.header('Content-Security-Policy', TRUST_CSP)
    c.header('X-Content-Type-Options', 'nosniff')
    c.header('Referrer-Policy', 'no-referrer')
    c.header('Cache-Control', 'no-store')
    if (!state.limited) return null
    c.header('Retry-After', String(state.retryAfterS))
    return c.text(TRUST_TEXTS.tooMany, 429)
  }
  const render = async (c: Context, slug: string, visit: PageVisit, status: 200 | 400 = 200) => {
    try {
      const { page, orgId } = await options.service.pageAndOrg(slug)
      const cookie = getCookie(c, READER_COOKIE)
      const reader =
        visit.reader ?? (cookie ? await options.requests.reader(orgId, `Bearer ${cookie}`) : null)
      // a problem is said by the server's page alone (its address is no page of the app's)
      const shell = status === 200 ? (options.shell?.() ?? null) : null
      if (shell) c.header('Content-Security-Policy', TRUST_SHELL_CSP)
      if (status === 200) options.views?.count(orgId)
      return c.html(
        trustPageHtml(
          page,
          (id) => `${API_PREFIX}${paths.publicTrust.download(page.slug, id)}`,
          { ...visit, reader },
          shell,
        ),
        status,
      )
    } catch (error) {
      if ((error as { status?: number }).status === 404) return c.html(trustNotFoundHtml(), 404)
      throw error
    }
  }
  app.get('/trust/:slug', async (c) => {
    const refused = await guard(c)
    if (refused) return refused
    const access = c.req.query('access')
    return render(c, c.req.param('slug'), { access: access?.slice(0, 200) ?? null })
  })
  // the emailed link's own click: the reader session goes into a cookie of its own
  app.post('/trust/:slug/session', async (c) => {
    const refused = await guard(c, true)
    if (refused) return refused
    const slug = c.req.param('slug')
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>)
    const token = typeof form.token === 'string' ? form.token : ''
    let page: Awaited<ReturnType<TrustService['requestPage']>>
    try {
      page = await options.service.requestPage(slug)
    } catch {
      return c.html(trustNotFoundHtml(), 404)
    }
    try {
      const session = await options.requests.exchange(page.orgId, token)
      setReaderCookie(c, session, options.secure)
      return c.redirect(`/trust/${page.slug}`, 303)
    } catch {
      return render(c, slug, { error: TRUST_REQUEST_TEXTS.linkInvalid }, 400)
    }
  })
  return app
}
