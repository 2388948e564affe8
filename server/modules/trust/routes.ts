import { Readable } from 'node:stream'
import { type Context, Hono } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import { z } from 'zod'
import { API_PREFIX, paths } from '../../../contract/paths.ts'
import {
  fileTrustSchema,
  qaTrustSchema,
  TRUST_REQUEST_TEXTS,
  TRUST_TEXTS,
  type TrustReader,
  trustAnalyticsQuerySchema,
  trustAskSchema,
  trustGrantSchema,
  trustRequestCreateSchema,
  trustSessionRequestSchema,
  trustSettingsUpdateSchema,
} from '../../../contract/trust.ts'
import type { AuthEnv, Authenticator } from '../../auth/middleware.ts'
import { requireAuth } from '../../auth/middleware.ts'
import type { Permit } from '../../auth/permissions.ts'
import type { RateLimiter } from '../../auth/rate-limit.ts'
import { clientAddress } from '../../http/client-address.ts'
import { sendDownload } from '../../http/download.ts'
import { apiError } from '../../http/errors.ts'
import { createMemoryLimiter } from '../../http/memory-limit.ts'
import { jsonBody, params, query } from '../../http/validate.ts'
import { DEFAULT_ANALYTICS_DAYS, type TrustAdmin } from './analytics.ts'
import type { TrustAsk } from './ask.ts'
import {
  type PageVisit,
  TRUST_CSP,
  TRUST_SHELL_CSP,
  trustNotFoundHtml,
  trustPageHtml,
} from './html.ts'
import type { TrustRequests } from './requests.ts'
import { type TrustService, trustNotFound } from './service.ts'
import type { TrustShell } from './shell.ts'
import { stampPdf } from './stamp.ts'
import type { ViewCounter } from './views.ts'

const isPdf = (file: { name: string; mime: string }) =>
  file.mime === 'application/pdf' || /\.pdf$/i.test(file.name)
async function bytesOf(stream: NodeJS.ReadableStream) {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array))
  return new Uint8Array(Buffer.concat(chunks))
}

const idParams = z.object({ id: z.coerce.number().int().positive() })
const at = (path: string) =>
  decodeURIComponent(path).replace('{id}', ':id{[0-9]+}').replace('{slug}', ':slug')
const slugParams = z.object({ slug: z.string().min(1).max(100) })
const downloadParams = slugParams.extend({ id: z.coerce.number().int().positive() })

/** The reader session's cookie: the page, its downloads and the reader call read it. */
export const READER_COOKIE = 'quire_trust_reader'

/** The reader session in an HttpOnly cookie of its own, for as long as the grant lasts. */
function setReaderCookie(
  c: Context,
  session: { access: string; expires_at: string },
  secure: boolean,
) {
  setCookie(c, READER_COOKIE, session.access, {
    httpOnly: true,
    secure,
    sameSite: 'Strict',
    path: '/',
    expires: new Date(session.expires_at),
  })
}

/** The reader token a request carries: its Authorization header, else the reader cookie. */
function readerToken(c: Context) {
  const cookie = getCookie(c, READER_COOKIE)
  return c.req.header('authorization') ?? (cookie ? `Bearer ${cookie}` : undefined)
}

/** Anyone's reads of public pages, per address: generous for people, a wall for scrapers. */
const PUBLIC_RULE = { limit: 120, windowMs: 60_000 }
/** Questions to the ask box, per address. */
const ASK_RULE = { limit: 20, windowMs: 60_000 }

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
  requests: TrustRequests
  ask: TrustAsk
  admin: TrustAdmin
  views: ViewCounter
  /** The organisation's logo (the account area's), for a published page. */
  logo: (orgId: number) => Promise<{ mime: string; data: Buffer; updated_at: Date }>
  limiter: RateLimiter
  trustProxy: boolean
  /** Whether the site is served over https (the reader cookie is then Secure). */
  secure: boolean
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

  app.get(T.items, signedIn, permit('library.manage'), async (c) =>
    c.json(await options.admin.items(c.get('auth').org.id)),
  )
  app.get(T.analytics, signedIn, permit('organization.manage'), async (c) => {
    const { days } = query(c, trustAnalyticsQuerySchema)
    // this node's views are written first: the figures hold every view counted so far here
    await options.views.flush()
    return c.json(
      await options.admin.analytics(c.get('auth').org.id, days ?? DEFAULT_ANALYTICS_DAYS),
    )
  })

  // requests under NDA: the admins decide (the request's person is told by email)
  app.get(T.requests, signedIn, permit('organization.manage'), async (c) =>
    c.json({ results: await options.requests.list(c.get('auth').org.id) }),
  )
  for (const action of ['approve', 'reject', 'revoke', 'extend'] as const) {
    app.post(at(T.request('{id}', action)), signedIn, permit('organization.manage'), async (c) => {
      const { id } = params(c, idParams)
      const text = (await c.req.text()).trim()
      const body = text ? await jsonBody(c, trustGrantSchema) : {}
      const auth = c.get('auth')
      return c.json(await options.requests.decide(auth.org.id, auth.user.id, id, action, body.days))
    })
  }

  const views = createMemoryLimiter(PUBLIC_RULE)
  /** The public calls' limit: reads of the page in memory, the rest in the shared limiter. */
  const limited = async (c: Context, read = false) => {
    const key = `trust-public:${clientAddress(c, options.trustProxy)}`
    const state = read ? views.hit(key) : await options.limiter.hit(key, PUBLIC_RULE)
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
    await limited(c, true)
    const { slug } = params(c, slugParams)
    // a view is counted where the page is opened (its HTML): the JSON is what its script reads
    return c.json((await service.pageAndOrg(slug)).page)
  })
  app.get(at(P.reader('{slug}')), async (c) => {
    await limited(c, true)
    const { slug } = params(c, slugParams)
    const { orgId } = await service.pageAndOrg(slug)
    // a reader token only (tr_...): a staff session is never one
    const reader = await options.requests.reader(orgId, readerToken(c))
    const body: TrustReader = {
      reader: reader ? { email: reader.email, expires_at: reader.expiresAt.toISOString() } : null,
    }
    return c.json(body)
  })
  app.get(at(P.logo('{slug}')), async (c) => {
    await limited(c, true)
    const { slug } = params(c, slugParams)
    const { page, orgId } = await service.pageAndOrg(slug)
    if (!page.organization.logo) throw trustNotFound()
    const image = await options.logo(orgId).catch((error) => {
      throw (error as { status?: number }).status === 404 ? trustNotFound() : error
    })
    const etag = `"${image.updated_at.getTime().toString(36)}"`
    // asked again on each view (unpublishing takes it away at once), sent again only if changed
    c.header('Cache-Control', 'no-cache')
    c.header('ETag', etag)
    c.header('Content-Security-Policy', "default-src 'none'")
    if (c.req.header('if-none-match') === etag) return c.body(null, 304)
    return c.body(new Uint8Array(image.data), 200, {
      'content-type': image.mime,
      'content-disposition': 'inline; filename="logo"',
    })
  })
  app.post(at(P.requests('{slug}')), async (c) => {
    await limited(c)
    const { slug } = params(c, slugParams)
    const page = await service.requestPage(slug)
    const body = await jsonBody(c, trustRequestCreateSchema)
    const result = await options.requests.create(page, body, {
      address: clientAddress(c, options.trustProxy),
      userAgent: c.req.header('user-agent') ?? null,
    })
    return c.json(result, 201)
  })
  app.post(at(P.ask('{slug}')), async (c) => {
    await limited(c)
    // answering costs more than reading: a tighter limit of its own
    const state = await options.limiter.hit(
      `trust-ask:${clientAddress(c, options.trustProxy)}`,
      ASK_RULE,
    )
    if (state.limited)
      throw apiError(
        429,
        TRUST_TEXTS.tooMany,
        { code: 'rate_limited' },
        { 'Retry-After': String(state.retryAfterS) },
      )
    const { slug } = params(c, slugParams)
    const page = await service.requestPage(slug)
    const body = await jsonBody(c, trustAskSchema)
    return c.json(await options.ask(page, body.question))
  })
  app.post(at(P.session('{slug}')), async (c) => {
    await limited(c)
    const { slug } = params(c, slugParams)
    const page = await service.requestPage(slug)
    const body = await jsonBody(c, trustSessionRequestSchema)
    const session = await options.requests.exchange(page.orgId, body.token)
    // the browser keeps it too, so that plain links download what is under NDA
    setReaderCookie(c, session, options.secure)
    return c.json(session)
  })
  app.get(at(P.download('{slug}', '{id}')), async (c) => {
    await limited(c)
    const parsed = downloadParams.safeParse(c.req.param())
    if (!parsed.success) throw trustNotFound()
    let reader: { id: number; email: string } | null = null
    const file = await service.publicDocument(parsed.data.slug, parsed.data.id, async (orgId) => {
      reader = await options.requests.reader(orgId, readerToken(c))
      return reader !== null
    })
    const address = clientAddress(c, options.trustProxy)
    const who = reader as { id: number; email: string } | null
    await options.requests.logDownload(file.orgId, file.fileId, who, address)
    if (!file.nda || !who || !isPdf(file)) return sendDownload(c, file)
    // a PDF under NDA is marked on every page with its reader and the day
    const stamped = await stampPdf(await bytesOf(file.stream), who.email, new Date())
    return sendDownload(c, { ...file, size: stamped.byteLength, stream: Readable.from([stamped]) })
  })
  return app
}

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
