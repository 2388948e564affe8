import { Readable } from 'node:stream'
import type { Context } from 'hono'
import { z } from 'zod'
import { paths } from '../../../../contract/paths.ts'
import {
  TRUST_TEXTS,
  type TrustReader,
  trustAskSchema,
  trustRequestCreateSchema,
  trustSessionRequestSchema,
} from '../../../../contract/trust.ts'
import type { RateLimiter } from '../../../auth/rate-limit.ts'
import { clientAddress } from '../../../http/client-address.ts'
import { sendDownload } from '../../../http/download.ts'
import { apiError } from '../../../http/errors.ts'
import { createMemoryLimiter } from '../../../http/memory-limit.ts'
import { type AreaRouter, routePath } from '../../../http/route-kit.ts'
import { jsonBody, params } from '../../../http/validate.ts'
import type { TrustAsk } from '../ask.ts'
import type { TrustRequests } from '../requests.ts'
import { type TrustService, trustNotFound } from '../service.ts'
import { stampPdf } from '../stamp.ts'
import { PUBLIC_RULE, readerToken, setReaderCookie } from './reader.ts'

const isPdf = (file: { name: string; mime: string }) =>
  file.mime === 'application/pdf' || /\.pdf$/i.test(file.name)
async function bytesOf(stream: NodeJS.ReadableStream) {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array))
  return new Uint8Array(Buffer.concat(chunks))
}

const slugParams = z.object({ slug: z.string().min(1).max(100) })
const downloadParams = slugParams.extend({ id: z.coerce.number().int().positive() })

/** Questions to the ask box, per address. */
const ASK_RULE = { limit: 20, windowMs: 60_000 }

/** A call over its limit: 429 in the trust centre's words, with how long to wait. */
const refuseIfLimited = (state: { limited: boolean; retryAfterS: number }) => {
  if (state.limited)
    throw apiError(
      429,
      TRUST_TEXTS.tooMany,
      { code: 'rate_limited' },
      { 'Retry-After': String(state.retryAfterS) },
    )
}

/**
 * The trust centre as anyone reads it: no session, none carried; an unknown slug, an unpublished
 * page and a document not on it answer alike; rate-limited per address.
 */
export function publicRoutes(
  app: AreaRouter,
  options: {
    service: TrustService
    requests: TrustRequests
    ask: TrustAsk
    /** The organisation's logo (the account area's), for a published page. */
    logo: (orgId: number) => Promise<{ mime: string; data: Buffer; updated_at: Date }>
    limiter: RateLimiter
    trustProxy: boolean
    /** Whether the site is served over https (the reader cookie is then Secure). */
    secure: boolean
  },
) {
  const { service } = options
  const views = createMemoryLimiter(PUBLIC_RULE)
  /** The public calls' limit: reads of the page in memory, the rest in the shared limiter. */
  const limited = async (c: Context, read = false) => {
    const key = `trust-public:${clientAddress(c, options.trustProxy)}`
    refuseIfLimited(read ? views.hit(key) : await options.limiter.hit(key, PUBLIC_RULE))
    // the public page is the same for everyone, and no staff session rides along
    c.header('Cache-Control', 'no-store')
    c.header('Referrer-Policy', 'no-referrer')
  }
  const P = paths.publicTrust
  app.open.get(routePath(P.page('{slug}')), async (c) => {
    await limited(c, true)
    const { slug } = params(c, slugParams)
    // a view is counted where the page is opened (its HTML): the JSON is what its script reads
    return c.json((await service.pageAndOrg(slug)).page)
  })
  app.open.get(routePath(P.reader('{slug}')), async (c) => {
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
  app.open.get(routePath(P.logo('{slug}')), async (c) => {
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
  app.open.post(routePath(P.requests('{slug}')), async (c) => {
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
  app.open.post(routePath(P.ask('{slug}')), async (c) => {
    await limited(c)
    // answering costs more than reading: a tighter limit of its own
    refuseIfLimited(
      await options.limiter.hit(`trust-ask:${clientAddress(c, options.trustProxy)}`, ASK_RULE),
    )
    const { slug } = params(c, slugParams)
    const page = await service.requestPage(slug)
    const body = await jsonBody(c, trustAskSchema)
    return c.json(await options.ask(page, body.question))
  })
  app.open.post(routePath(P.session('{slug}')), async (c) => {
    await limited(c)
    const { slug } = params(c, slugParams)
    const page = await service.requestPage(slug)
    const body = await jsonBody(c, trustSessionRequestSchema)
    const session = await options.requests.exchange(page.orgId, body.token)
    // the browser keeps it too, so that plain links download what is under NDA
    setReaderCookie(c, session, options.secure)
    return c.json(session)
  })
  app.open.get(routePath(P.download('{slug}', '{id}')), async (c) => {
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
}
