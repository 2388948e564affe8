import { randomUUID } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { type Context, Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { ERROR_CODES, ERROR_TEXTS } from '../contract/errors.ts'
import { QUIRE_EXTENSION_ID } from '../contract/extension.ts'
import { DEFAULT_MAX_UPLOAD_MB } from '../contract/knowledge.ts'
import { API_PREFIX, apiPath, paths } from '../contract/paths.ts'
import { createEmbedder, type EmbeddingOptions } from './answering/embeddings.ts'
import { bearerToken } from './auth/middleware.ts'
import { permissions } from './auth/permissions.ts'
import type { RateRule } from './auth/rate-limit.ts'
import { createRateLimiter } from './auth/rate-limit.ts'
import { type Clock, createTokenService } from './auth/tokens.ts'
import {
  BUSY_RETRY_AFTER_S,
  type DatabaseWatch,
  isDatabaseUnavailable,
  isPoolSaturated,
  RETRY_AFTER_S,
  watchDatabase,
} from './db/availability.ts'
import type { Database } from './db/index.ts'
import { compressJson } from './http/compress-json.ts'
import type { AppEnv } from './http/env.ts'
import { ApiException, apiError, codeForStatus } from './http/errors.ts'
import { createEventHub, type EventHub } from './http/event-hub.ts'
import { securityHeaders } from './http/security-headers.ts'
import { serveSpa } from './http/static.ts'
import { createStreamRegistry, type StreamLimits } from './http/streams.ts'
import type { ParseLimits } from './ingest/index.ts'
import type { Jobs } from './jobs/index.ts'
import { type LlmOptions, llmEngineOf } from './jobs/registry.ts'
import type { Logger } from './logger.ts'
import type { Mailer } from './mail/index.ts'
import { createTxtLookup, type TxtLookup } from './modules/account/domains.ts'
import { type TierCatalog, tierCatalog } from './modules/account/license.ts'
import { createLogoService } from './modules/account/logo.ts'
import { accountRoutes } from './modules/account/routes.ts'
import { answeringRoutes } from './modules/answering/routes.ts'
import { createAnsweringService } from './modules/answering/service.ts'
import { authRoutes } from './modules/auth/routes.ts'
import { type AuthLimits, createAuthService, DEFAULT_AUTH_LIMITS } from './modules/auth/service.ts'
import { billingRoutes, type PaymentSettings } from './modules/billing/routes.ts'
import { chatRoutes } from './modules/chat/routes.ts'
import { createChatService } from './modules/chat/service.ts'
import { collaborationRoutes } from './modules/collaboration/routes.ts'
import { createCollaborationService } from './modules/collaboration/service.ts'
import { commentRoutes } from './modules/comments/routes.ts'
import { type CommentSettings, createCommentService } from './modules/comments/service.ts'
import { createPortal } from './modules/extension/portal.ts'
import { extensionRoutes, portalRoutes } from './modules/extension/routes.ts'
import { healthRoutes } from './modules/health/routes.ts'
import { knowledgeRoutes } from './modules/knowledge/routes.ts'
import { createKnowledgeService } from './modules/knowledge/service.ts'
import { type LegalSettings, legalRoutes } from './modules/legal/routes.ts'
import { notificationRoutes } from './modules/notifications/routes.ts'
import { createNotificationService } from './modules/notifications/service.ts'
import { createPlatform } from './modules/platform/service.ts'
import { productRoutes } from './modules/products/routes.ts'
import { createProductService } from './modules/products/service.ts'
import { createExportService } from './modules/questionnaires/export.ts'
import { questionnaireRoutes } from './modules/questionnaires/routes.ts'
import { createQuestionnaireService } from './modules/questionnaires/service.ts'
import { repositoryRoutes } from './modules/repository/routes.ts'
import { createRepositoryService } from './modules/repository/service.ts'
import { ssoRoutes } from './modules/sso/routes.ts'
import type { GoogleSettings } from './modules/sso/settings.ts'
import { supportRoutes, ticketBodyLimit } from './modules/support/routes.ts'
import { createTrustAdmin } from './modules/trust/analytics.ts'
import { createTrustAsk } from './modules/trust/ask.ts'
import { createTrustRequests } from './modules/trust/requests.ts'
import { trustPageRoutes, trustRoutes } from './modules/trust/routes.ts'
import { createTrustService } from './modules/trust/service.ts'
import { shellReader } from './modules/trust/shell.ts'
import { createViewCounter } from './modules/trust/views.ts'
import { createDiskStorage } from './storage/index.ts'

export interface AppDeps {
  database: Database
  logger: Logger
  jobs?: Jobs
  /** Application version shown by /health. */
  version: string
  /** The operator's terms and privacy policy (issue 30); the defaults when omitted. */
  legal?: LegalSettings
  /** Whether the database is the embedded one. */
  embedded: boolean
  /** Built SPA directory; omitted in API-only tests. */
  distDir?: string
  /** Links in mail are built only from this (LT7). */
  publicUrl: string
  /** HS256 key of the access tokens. */
  jwtSecret: string
  mailer: Mailer
  /** The clock of every expiry decision; tests move it (LT2). */
  now?: Clock
  /** Rate limits of the auth calls; tests raise the per-address one. */
  authLimits?: Partial<AuthLimits>
  /** Calls per API key and window (issue 41); tests lower it. */
  apiKeyLimit?: RateRule
  /** Honour X-Forwarded-For for client addresses (a reverse proxy sits in front). */
  trustProxy?: boolean
  /** Where blobs live (DATA_DIR); a temporary directory when omitted (API-only tests). */
  dataDir?: string
  /** Per-file upload cap in MB (MAX_UPLOAD_MB). */
  maxUploadMb?: number
  /** host:port pairs URL fetching may reach although private (URL_FETCH_ALLOW). */
  urlFetchAllow?: string[]
  parseLimits?: Partial<ParseLimits>
  /** The language-model engine (LLM_BASE_URL and LLM_MODEL), or a mock model in tests. */
  llm?: LlmOptions
  /** EMBEDDING_MODEL, or a mock embedding model in tests. */
  embeddings?: EmbeddingOptions
  /** Whether the database is reachable (the runtime shares it with the embedded supervisor). */
  databaseWatch?: DatabaseWatch
  /** The checkout provider (PADDLE_*): off unless enabled. */
  payments?: PaymentSettings
  /** License tiers (LICENSE_TIERS_FILE); the shipped ones when omitted. */
  tiers?: TierCatalog
  /** Browser extensions allowed besides Quire's own (EXTENSION_IDS). */
  extensionIds?: string[]
  /** Google sign-in (GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET, GOOGLE_ISSUER); off when omitted. */
  google?: GoogleSettings
  /** TXT lookups for domain proofs (DNS_RESOLVER); the system's resolvers when omitted. */
  txtLookup?: TxtLookup
  /** Live events across nodes (issue 29); the runtime closes it at shutdown. */
  hub?: EventHub
  /** Caps on open live streams (STREAM_MAX_*); the defaults when omitted. */
  streamLimits?: Partial<StreamLimits>
  /** How often open streams' sessions are checked again (tests shorten it). */
  streamRecheckMs?: number
  /** Limits of comments and mentions, and when their emails become one digest (issue 37). */
  comments?: Partial<CommentSettings>
  /**
   * Work to finish when the app closes (the trust centre's page views counted in memory): the
   * runtime runs each hook once the HTTP server has stopped, before the database closes.
   */
  onClose?: (hook: () => Promise<void>) => void
}

const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/
/** JSON bodies of ordinary calls; upload routes set their own, larger limits. */
const JSON_BODY_LIMIT = 1024 * 1024

/** The Hono app factory, shared by the server entry and the tests. */
export function createApp(deps: AppDeps) {
  const app = new Hono<AppEnv>()
  const databaseWatch =
    deps.databaseWatch ?? watchDatabase(deps.database.pool, { logger: deps.logger })
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
  const now = deps.now ?? (() => new Date())
  const limiter = createRateLimiter(deps.database.pool, now)
  const sessionAuth = createAuthService({
    database: deps.database,
    tokens: createTokenService({ secret: deps.jwtSecret, now }),
    limiter,
    mailer: deps.mailer,
    now,
    publicUrl: deps.publicUrl,
    logger: deps.logger,
    limits: { ...DEFAULT_AUTH_LIMITS, ...deps.authLimits },
  })
  // issue 41: API keys beside people's sessions, webhooks, the API described, MCP
  const platform = createPlatform({ ...deps, now })
  const auth = platform.withKeys(sessionAuth)
  // roles: every authenticated route names the capability it needs (contract/roles.ts)
  const permit = permissions(deps.database)
  api.route(
    '/',
    authRoutes({ auth, permit, database: deps.database, trustProxy: deps.trustProxy ?? false }),
  )
  api.route(
    '/',
    accountRoutes({
      auth,
      permit,
      database: deps.database,
      secret: deps.jwtSecret,
      txtLookup: deps.txtLookup ?? createTxtLookup(),
      mailer: deps.mailer,
      publicUrl: deps.publicUrl,
    }),
  )
  const billing = billingRoutes({
    auth,
    permit,
    database: deps.database,
    logger: deps.logger,
    catalog: deps.tiers ? () => deps.tiers as TierCatalog : tierCatalog,
    payments: deps.payments ?? { enabled: false, environment: 'sandbox' },
    now,
  })
  api.route('/', billing.app)
  const sso = ssoRoutes({
    auth,
    permit,
    database: deps.database,
    logger: deps.logger,
    publicUrl: deps.publicUrl,
    jwtSecret: deps.jwtSecret,
    urlFetchAllow: deps.urlFetchAllow ?? [],
    google: deps.google,
    now,
    startSession: (userId) => auth.startSessionFor(userId),
    limiter,
    startLimit: { ...DEFAULT_AUTH_LIMITS, ...deps.authLimits }.ssoStarts,
    trustProxy: deps.trustProxy ?? false,
  })
  api.route('/', sso.app)
  api.route(
    '/',
    extensionRoutes({
      auth,
      permit,
      extensionIds: [...new Set([QUIRE_EXTENSION_ID, ...(deps.extensionIds ?? [])])],
      tokenGet: (context) => auth.tokenGet(context),
    }),
  )
  api.route('/', sso.admin)
  api.route('/', billing.webhook)
  api.route('/', supportRoutes({ auth, permit, database: deps.database, limiter }))
  const storage = createDiskStorage(
    deps.dataDir ?? mkdtempSync(path.join(tmpdir(), 'quire-blobs-')),
  )
  const maxUploadBytes = (deps.maxUploadMb ?? DEFAULT_MAX_UPLOAD_MB) * 1024 * 1024
  const embedder = createEmbedder(deps.embeddings)
  // what the areas that store files and run jobs on them share
  const fileWork = {
    database: deps.database,
    storage,
    jobs: deps.jobs,
    logger: deps.logger,
    parseLimits: deps.parseLimits ?? {},
  }
  const repository = createRepositoryService({
    ...fileWork,
    urlFetchAllow: deps.urlFetchAllow ?? [],
    embedder,
    // answers quoting a file are checked when its new version is read (without a job runner:
    // here) or when it is deleted (issue 28)
    onVersionReady: async (orgId, fileId, version) => {
      await answering.checkSources(orgId, fileId, version)
    },
    onFilesDeleted: async (orgId, fileIds) => {
      for (const fileId of fileIds) await answering.checkSources(orgId, fileId, null)
    },
  })
  api.route(
    '/',
    repositoryRoutes({
      auth,
      permit,
      service: repository,
      storage,
      maxUploadBytes,
      urlFetchAllow: deps.urlFetchAllow ?? [],
    }),
  )
  api.route(
    '/',
    knowledgeRoutes({
      auth,
      permit,
      service: createKnowledgeService({ database: deps.database }),
      repository,
      storage,
      maxUploadBytes,
    }),
  )
  const questionnaires = createQuestionnaireService(fileWork)
  const llm = llmEngineOf(deps)
  const answering = createAnsweringService({
    database: deps.database,
    logger: deps.logger,
    jobs: deps.jobs,
    questionnaires,
    llm,
    embedder,
  })
  api.route(
    '/',
    portalRoutes({
      auth,
      permit,
      portal: createPortal({ database: deps.database, runGeneration: answering.run }),
    }),
  )
  api.route(
    '/',
    answeringRoutes({
      auth,
      permit,
      answerApproved: questionnaires.answerApproved,
      service: answering,
    }),
  )
  api.route(
    '/',
    chatRoutes({
      auth,
      permit,
      chat: createChatService({
        database: deps.database,
        catalog: deps.tiers ? () => deps.tiers as TierCatalog : tierCatalog,
        now,
        answerQuestion: (orgId, library, question) =>
          answering.answerQuestion(orgId, library, question),
        hasModel: Boolean(llm),
      }),
    }),
  )
  api.route(
    '/',
    questionnaireRoutes({
      auth,
      permit,
      service: questionnaires,
      exports: createExportService({
        database: deps.database,
        storage,
        questionnaires,
        parseLimits: deps.parseLimits ?? {},
        jobs: deps.jobs,
        logger: deps.logger,
      }),
      storage,
      maxUploadBytes,
      // the collaboration area keeps the work (made below; called only once requests come)
      work: {
        check: (orgId, body) => collaboration.checkWork(orgId, body),
        apply: (orgId, userId, id, body) => collaboration.updateWork(orgId, userId, id, body),
      },
    }),
  )
  const hub = deps.hub ?? createEventHub({ database: deps.database, logger: deps.logger })
  const streams = createStreamRegistry({
    hub,
    auth,
    logger: deps.logger,
    limits: deps.streamLimits,
    recheckMs: deps.streamRecheckMs,
  })
  // issue 29: `notify(client, events)` inside a transaction, `deliver()` after it commits
  const notifications = createNotificationService({
    database: deps.database,
    logger: deps.logger,
    mailer: deps.mailer,
    publicUrl: deps.publicUrl,
    secret: deps.jwtSecret,
    now,
    gathering: deps.comments,
  })
  const collaboration = createCollaborationService({
    database: deps.database,
    questionnaires,
    hub,
    notifier: notifications,
    now,
  })
  api.route(
    '/',
    collaborationRoutes({
      auth,
      permit,
      streams,
      service: collaboration,
    }),
  )
  api.route(
    '/',
    commentRoutes({
      auth,
      permit,
      service: createCommentService({
        database: deps.database,
        notifications,
        limiter,
        settings: deps.comments,
      }),
    }),
  )
  api.route(
    '/',
    productRoutes({ auth, permit, service: createProductService({ database: deps.database }) }),
  )
  api.route('/', notificationRoutes({ auth, permit, service: notifications, streams }))
  const trust = createTrustService({ database: deps.database, storage })
  const trustRequests = createTrustRequests({
    database: deps.database,
    mailer: deps.mailer,
    publicUrl: deps.publicUrl,
    now,
    notifications,
  })
  // views of the public page, counted here and written every few seconds (and at the close)
  const trustViews = createViewCounter({ pool: deps.database.pool, logger: deps.logger, now })
  deps.onClose?.(() => trustViews.close())
  const secure = deps.publicUrl.startsWith('https://')
  api.route(
    '/',
    platform.routes({
      auth,
      permit,
      answerQuestion: (orgId, library, question) =>
        answering.answerQuestion(orgId, library, question),
    }),
  )
  api.route(
    '/',
    trustRoutes({
      auth,
      permit,
      service: trust,
      requests: trustRequests,
      ask: createTrustAsk({
        database: deps.database,
        embeddingModel: embedder?.name,
        hasModel: Boolean(llm),
        answerQuestion: (orgId, library, question, index) =>
          answering.answerQuestion(orgId, library, question, undefined, index),
      }),
      admin: createTrustAdmin({ database: deps.database, now }),
      views: trustViews,
      logo: createLogoService({ database: deps.database }).get,
      limiter,
      trustProxy: deps.trustProxy ?? false,
      secure,
    }),
  )
  // issue 41: the API's own description, from the routes held and the contract's schemas
  api.route(
    '/',
    platform.description(() => app.routes),
  )
  api.all('*', (c) => c.json({ error: ERROR_TEXTS.routeNotFound, code: ERROR_CODES.notFound }, 404))
  app.route(API_PREFIX, api)
  app.route(
    '/',
    platform.outside(auth, (request) => app.fetch(request)),
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
      service: trust,
      requests: trustRequests,
      limiter,
      trustProxy: deps.trustProxy ?? false,
      secure,
      views: trustViews,
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
