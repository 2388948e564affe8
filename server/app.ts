import { randomUUID } from 'node:crypto'
import { type Context, Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { ERROR_CODES, ERROR_TEXTS } from '../contract/errors.ts'
import { QUIRE_EXTENSION_ID } from '../contract/extension.ts'
import { API_PREFIX, apiPath, paths } from '../contract/paths.ts'
import { bearerToken } from './auth/middleware.ts'
import {
  BUSY_RETRY_AFTER_S,
  isDatabaseUnavailable,
  isPoolSaturated,
  RETRY_AFTER_S,
} from './db/availability.ts'
import { compressJson } from './http/compress-json.ts'
import type { AppEnv } from './http/env.ts'
import { ApiException, apiError, codeForStatus } from './http/errors.ts'
import { securityHeaders } from './http/security-headers.ts'
import { serveSpa } from './http/static.ts'
import { accountRoutes } from './modules/account/routes.ts'
import { answeringRoutes } from './modules/answering/routes.ts'
import { authRoutes } from './modules/auth/routes.ts'
import { billingRoutes, type PaymentSettings } from './modules/billing/routes.ts'
import { chatRoutes } from './modules/chat/routes.ts'
import { collaborationRoutes } from './modules/collaboration/routes.ts'
import { commentRoutes } from './modules/comments/routes.ts'
import { extensionRoutes, portalRoutes } from './modules/extension/routes.ts'
import { healthRoutes } from './modules/health/routes.ts'
import { knowledgeRoutes } from './modules/knowledge/routes.ts'
import { type LegalSettings, legalRoutes } from './modules/legal/routes.ts'
import { notificationRoutes } from './modules/notifications/routes.ts'
import { productRoutes } from './modules/products/routes.ts'
import { questionnaireRoutes } from './modules/questionnaires/routes.ts'
import { repositoryRoutes } from './modules/repository/routes.ts'
import { ssoRoutes } from './modules/sso/routes.ts'
import { supportRoutes, ticketBodyLimit } from './modules/support/routes.ts'
import { trustPageRoutes, trustRoutes } from './modules/trust/routes.ts'
import { shellReader } from './modules/trust/shell.ts'
import { createServices, type ServiceDeps, type Services } from './services.ts'

export type { ServiceDeps, Services } from './services.ts'

/** What the app is built from: its services' deps (services.ts) and what its HTTP edge needs. */
export interface AppDeps extends ServiceDeps {
  /** Application version shown by /health. */
  version: string
  /** The operator's terms and privacy policy (issue 30); the defaults when omitted. */
  legal?: LegalSettings
  /** Whether the database is the embedded one. */
  embedded: boolean
  /** Built SPA directory; omitted in API-only tests. */
  distDir?: string
  /** Honour X-Forwarded-For for client addresses (a reverse proxy sits in front). */
  trustProxy?: boolean
  /** The checkout provider (PADDLE_*): off unless enabled. */
  payments?: PaymentSettings
  /** Browser extensions allowed besides Quire's own (EXTENSION_IDS). */
  extensionIds?: string[]
}

const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/
/** JSON bodies of ordinary calls; upload routes set their own, larger limits. */
const JSON_BODY_LIMIT = 1024 * 1024

/**
 * The Hono app factory, shared by the server entry and the tests: the services built
 * (services.ts), then the HTTP edge (request ids and logs, security headers, body limits, the
 * database's absence), every area's router mounted, and the error edge.
 */
export function createApp(deps: AppDeps) {
  const services = createServices(deps)
  const { databaseWatch, auth } = services
  const app = new Hono<AppEnv>()
  const unavailable = (c: Context) =>
    c.json({ error: ERROR_TEXTS.unavailable, code: ERROR_CODES.unavailable }, 503, {
      'Retry-After': String(RETRY_AFTER_S),
    })

  app.use('*', async (c, next) => {
    const incoming = c.req.header('x-request-id')
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID()
    const log = deps.logger.child({ reqId: requestId })
    c.set('requestId', requestId)
    c.set('log', log)
    const started = performance.now()
    await next()
    c.res.headers.set('X-Request-Id', requestId)
    // path only: query strings may carry tokens (LT8)
    const entry = {
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
    }
    if (c.req.path === `${API_PREFIX}/health`) log.debug(entry, 'request')
    else log.info(entry, 'request')
  })
  app.use(
    '*',
    securityHeaders({
      hsts: deps.publicUrl.startsWith('https://'),
      payments: deps.payments?.enabled ?? false,
    }),
  )

  const api = new Hono<AppEnv>()
  const jsonBodyLimit = bodyLimit({
    maxSize: JSON_BODY_LIMIT,
    onError: () => {
      throw apiError(413, 'The request body is too large', { code: ERROR_CODES.tooLarge })
    },
  })
  // The ticket call carries base64 attachments: it gets its own, larger limit instead. Uploads
  // stream to disk and enforce their own per-file cap (UP2).
  const ticketPath = apiPath(paths.support.createTask)
  const streamedPaths = new Set(
    [
      paths.files.upload,
      paths.knowledgeBase.importPreview,
      paths.knowledgeBase.import,
      paths.questionnaires.upload,
    ].map(apiPath),
  )
  // JSON answers are compressed for clients that accept it (2,000 questions: 1.6 MB of JSON)
  api.use('*', compressJson())
  api.use('*', (c, next) => {
    if (c.req.method === 'POST' && c.req.path === ticketPath) return ticketBodyLimit(c, next)
    if (c.req.method === 'POST' && streamedPaths.has(c.req.path)) return next()
    return jsonBodyLimit(c, next)
  })
  // while the database is away every call answers 503 at once (health reports it itself)
  const healthPath = apiPath(paths.health)
  api.use('*', (c, next) =>
    databaseWatch.down && c.req.path !== healthPath ? Promise.resolve(unavailable(c)) : next(),
  )
  api.route(
    '/',
    healthRoutes({
      ...deps,
      databaseWatch,
      signedIn: async (header) => {
        const token = bearerToken(header)
        return token ? (await auth.authenticate(token).catch(() => null)) !== null : false
      },
    }),
  )
  api.route(
    '/',
    legalRoutes({
      settings: deps.legal,
      publicUrl: deps.publicUrl,
      llmBaseUrl: deps.llm?.settings?.baseUrl,
    }),
  )
  mountAreas(api, deps, services)
  // issue 41: the API's own description, from the routes held and the contract's schemas
  api.route(
    '/',
    services.platform.description(() => app.routes),
  )
  api.all('*', (c) => c.json({ error: ERROR_TEXTS.routeNotFound, code: ERROR_CODES.notFound }, 404))
  app.route(API_PREFIX, api)
  app.route(
    '/',
    services.platform.outside(auth, (request) => app.fetch(request)),
  )
  app.all('/api/*', (c) =>
    c.json({ error: ERROR_TEXTS.routeNotFound, code: ERROR_CODES.notFound }, 404),
  )

  // an operator who publishes their terms or privacy policy elsewhere: /terms and /privacy go there
  for (const kind of ['terms', 'privacy'] as const) {
    const url = deps.legal?.[kind]?.url
    if (url) app.get(`/${kind}`, (c) => c.redirect(url, 302))
  }
  // the trust centre's public page, as HTML that reads without JavaScript (issue 40)
  app.route(
    '/',
    trustPageRoutes({
      service: services.trust.service,
      requests: services.trust.requests,
      limiter: services.limiter,
      trustProxy: deps.trustProxy ?? false,
      secure: deps.publicUrl.startsWith('https://'),
      views: services.trust.views,
      // with the web app built, the page carries it (it mounts there and takes over)
      shell: deps.distDir ? shellReader(deps.distDir) : undefined,
    }),
  )
  if (deps.distDir) app.use('*', serveSpa(deps.distDir))

  app.notFound((c) => c.text('Not found', 404))
  app.onError((error, c) => {
    if (error instanceof ApiException) return c.json(error.body, error.status, error.headers)
    if (error instanceof HTTPException) {
      const status = error.status as ContentfulStatusCode
      return c.json(
        { error: error.message || ERROR_TEXTS.internal, code: codeForStatus(status) },
        status,
      )
    }
    // every pooled connection busy: this request is refused, the next may well succeed
    if (isPoolSaturated(error)) {
      c.get('log')?.warn('no database connection free in time: answered 503 busy')
      return c.json({ error: ERROR_TEXTS.busy, code: ERROR_CODES.unavailable }, 503, {
        'Retry-After': String(BUSY_RETRY_AFTER_S),
      })
    }
    // the whole server turns to 503 only once a connection of its own fails as well
    if (isDatabaseUnavailable(error)) {
      databaseWatch.suspect(error)
      return unavailable(c)
    }
    c.get('log')?.error({ err: error }, 'unhandled error')
    return c.json({ error: ERROR_TEXTS.internal, code: ERROR_CODES.internal }, 500)
  })
  return app
}

export type App = ReturnType<typeof createApp>

/** Every area's router under /api/v1: each guards its own routes, once (http/route-kit.ts). */
function mountAreas(api: Hono<AppEnv>, deps: AppDeps, services: Services) {
  const { auth, permit, limiter, storage, maxUploadBytes } = services
  const trustProxy = deps.trustProxy ?? false
  const urlFetchAllow = deps.urlFetchAllow ?? []
  const areas = [
    authRoutes({ auth, permit, database: deps.database, trustProxy }),
    accountRoutes({ auth, permit, database: deps.database, ...services.account }),
    billingRoutes({
      auth,
      permit,
      billing: services.billing,
      events: services.billingEvents,
      catalog: services.catalog,
      payments: deps.payments ?? { enabled: false, environment: 'sandbox' },
      now: services.now,
    }),
    ssoRoutes({
      auth,
      permit,
      sso: services.sso,
      publicUrl: deps.publicUrl,
      google: deps.google,
      limiter,
      startLimit: services.authLimits.ssoStarts,
      trustProxy,
    }),
    extensionRoutes({
      auth,
      permit,
      extensionIds: [...new Set([QUIRE_EXTENSION_ID, ...(deps.extensionIds ?? [])])],
      tokenGet: (context) => auth.tokenGet(context),
    }),
    supportRoutes({ auth, permit, support: services.support, limiter }),
    repositoryRoutes({
      auth,
      permit,
      service: services.repository,
      storage,
      maxUploadBytes,
      urlFetchAllow,
    }),
    knowledgeRoutes({
      auth,
      permit,
      service: services.knowledge,
      repository: services.repository,
      storage,
      maxUploadBytes,
    }),
    portalRoutes({ auth, permit, portal: services.portal }),
    answeringRoutes({
      auth,
      permit,
      answerApproved: services.questionnaires.answerApproved,
      service: services.answering,
    }),
    chatRoutes({ auth, permit, chat: services.chat }),
    questionnaireRoutes({
      auth,
      permit,
      service: services.questionnaires,
      exports: services.exports,
      storage,
      maxUploadBytes,
      // the collaboration area keeps the work
      work: {
        check: (orgId, body) => services.collaboration.checkWork(orgId, body),
        apply: (orgId, userId, id, body) =>
          services.collaboration.updateWork(orgId, userId, id, body),
      },
    }),
    collaborationRoutes({
      auth,
      permit,
      streams: services.streams,
      service: services.collaboration,
    }),
    commentRoutes({ auth, permit, service: services.comments }),
    productRoutes({ auth, permit, service: services.products }),
    notificationRoutes({
      auth,
      permit,
      service: services.notifications,
      streams: services.streams,
    }),
    services.platform.routes({ auth, permit, answerQuestion: services.answerQuestion }),
    trustRoutes({
      auth,
      permit,
      ...services.trust,
      limiter,
      trustProxy,
      secure: deps.publicUrl.startsWith('https://'),
    }),
  ]
  for (const area of areas) api.route('/', area)
}
