import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { DEFAULT_MAX_UPLOAD_MB } from '../contract/knowledge.ts'
import { createEmbedder, type EmbeddingOptions } from './answering/embeddings.ts'
import { permissions } from './auth/permissions.ts'
import { createRateLimiter, type RateRule } from './auth/rate-limit.ts'
import { type Clock, createTokenService } from './auth/tokens.ts'
import { type DatabaseWatch, watchDatabase } from './db/availability.ts'
import type { Database } from './db/index.ts'
import { createEventHub, type EventHub } from './http/event-hub.ts'
import { createStreamRegistry, type StreamLimits } from './http/streams.ts'
import type { ParseLimits } from './ingest/index.ts'
import type { Jobs } from './jobs/index.ts'
import { type LlmOptions, llmEngineOf } from './jobs/registry.ts'
import type { Logger } from './logger.ts'
import type { Mailer } from './mail/index.ts'
import { createDomainProofs, createTxtLookup, type TxtLookup } from './modules/account/domains.ts'
import { type TierCatalog, tierCatalog } from './modules/account/license.ts'
import { createLogoService } from './modules/account/logo.ts'
import { createOrganizationService } from './modules/account/organization.ts'
import { createAnsweringService } from './modules/answering/service.ts'
import { type AuthLimits, createAuthService, DEFAULT_AUTH_LIMITS } from './modules/auth/service.ts'
import { createEventProcessor } from './modules/billing/events.ts'
import { createBillingService } from './modules/billing/service.ts'
import { createChatService } from './modules/chat/service.ts'
import { createCollaborationService } from './modules/collaboration/service.ts'
import { type CommentSettings, createCommentService } from './modules/comments/service.ts'
import { createPortal } from './modules/extension/portal.ts'
import { createKnowledgeService } from './modules/knowledge/service.ts'
import { createNotificationService } from './modules/notifications/service.ts'
import { createPlatform } from './modules/platform/service.ts'
import { createProductService } from './modules/products/service.ts'
import { createExportService } from './modules/questionnaires/export.ts'
import { createQuestionnaireService } from './modules/questionnaires/service.ts'
import { createRepositoryService } from './modules/repository/service.ts'
import { createSsoService } from './modules/sso/service.ts'
import type { GoogleSettings } from './modules/sso/settings.ts'
import { createSupportService } from './modules/support/service.ts'
import { createTrustAdmin } from './modules/trust/analytics.ts'
import { createTrustAsk } from './modules/trust/ask.ts'
import { createTrustRequests } from './modules/trust/requests.ts'
import { createTrustService } from './modules/trust/service.ts'
import { createViewCounter } from './modules/trust/views.ts'
import { createDiskStorage } from './storage/index.ts'

/** What the areas' services are built from (the app's deps hold these and what HTTP needs). */
export interface ServiceDeps {
  database: Database
  logger: Logger
  jobs?: Jobs
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
  /** License tiers (LICENSE_TIERS_FILE); the shipped ones when omitted. */
  tiers?: TierCatalog
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

/**
 * Every area's services, built once from the deps and wired to each other: what the app's
 * routers are handed (server/app.ts mounts them). Nothing here knows about HTTP routes.
 */
export function createServices(deps: ServiceDeps) {
  const { database, logger, jobs } = deps
  const databaseWatch = deps.databaseWatch ?? watchDatabase(database.pool, { logger })
  const now = deps.now ?? (() => new Date())
  const limiter = createRateLimiter(database.pool, now)
  const authLimits = { ...DEFAULT_AUTH_LIMITS, ...deps.authLimits }
  const catalog = deps.tiers ? () => deps.tiers as TierCatalog : tierCatalog
  const sessionAuth = createAuthService({
    database,
    tokens: createTokenService({ secret: deps.jwtSecret, now }),
    limiter,
    mailer: deps.mailer,
    now,
    publicUrl: deps.publicUrl,
    logger,
    limits: authLimits,
  })
  // issue 41: API keys beside people's sessions, webhooks, the API described, MCP
  const platform = createPlatform({ ...deps, now })
  const auth = platform.withKeys(sessionAuth)

  const storage = createDiskStorage(
    deps.dataDir ?? mkdtempSync(path.join(tmpdir(), 'quire-blobs-')),
  )
  const embedder = createEmbedder(deps.embeddings)
  const llm = llmEngineOf(deps)
  // what the areas that store files and run jobs on them share
  const fileWork = { database, storage, jobs, logger, parseLimits: deps.parseLimits ?? {} }
  const questionnaires = createQuestionnaireService(fileWork)
  const answering = createAnsweringService({
    database,
    logger,
    jobs,
    questionnaires,
    llm,
    embedder,
  })
  const answerQuestion: Parameters<typeof createChatService>[0]['answerQuestion'] = (
    orgId,
    library,
    question,
  ) => answering.answerQuestion(orgId, library, question)
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

  const hub = deps.hub ?? createEventHub({ database, logger })
  const streams = createStreamRegistry({
    hub,
    auth,
    logger,
    limits: deps.streamLimits,
    recheckMs: deps.streamRecheckMs,
  })
  // issue 29: `notify(client, events)` inside a transaction, `deliver()` after it commits
  const notifications = createNotificationService({
    database,
    logger,
    mailer: deps.mailer,
    publicUrl: deps.publicUrl,
    secret: deps.jwtSecret,
    now,
    gathering: deps.comments,
  })
  const collaboration = createCollaborationService({
    database,
    questionnaires,
    hub,
    notifier: notifications,
    now,
  })

  const logo = createLogoService({ database })
  // views of the public page, counted here and written every few seconds (and at the close)
  const trustViews = createViewCounter({ pool: database.pool, logger, now })
  deps.onClose?.(() => trustViews.close())

  return {
    now,
    databaseWatch,
    limiter,
    authLimits,
    catalog,
    auth,
    // roles: every authenticated route names the capability it needs (contract/roles.ts)
    permit: permissions(database),
    platform,
    answerQuestion,
    storage,
    maxUploadBytes: (deps.maxUploadMb ?? DEFAULT_MAX_UPLOAD_MB) * 1024 * 1024,
    account: {
      organization: createOrganizationService({ database }),
      proofs: createDomainProofs({
        database,
        secret: deps.jwtSecret,
        lookup: deps.txtLookup ?? createTxtLookup(),
        mailer: deps.mailer,
        publicUrl: deps.publicUrl,
      }),
      logo,
    },
    billing: createBillingService({ database, catalog, now }),
    billingEvents: createEventProcessor({ database, catalog, logger }),
    sso: createSsoService({
      database,
      logger,
      publicUrl: deps.publicUrl,
      jwtSecret: deps.jwtSecret,
      urlFetchAllow: deps.urlFetchAllow ?? [],
      google: deps.google,
      now,
      startSession: (userId) => auth.startSessionFor(userId),
    }),
    support: createSupportService({ database }),
    repository,
    knowledge: createKnowledgeService({ database }),
    questionnaires,
    exports: createExportService({
      database,
      storage,
      questionnaires,
      parseLimits: deps.parseLimits ?? {},
      jobs,
      logger,
    }),
    answering,
    portal: createPortal({ database, runGeneration: answering.run }),
    chat: createChatService({
      database,
      catalog,
      now,
      answerQuestion,
      hasModel: Boolean(llm),
    }),
    streams,
    notifications,
    collaboration,
    comments: createCommentService({
      database,
      notifications,
      limiter,
      settings: deps.comments,
    }),
    products: createProductService({ database }),
    trust: {
      service: createTrustService({ database, storage }),
      requests: createTrustRequests({
        database,
        mailer: deps.mailer,
        publicUrl: deps.publicUrl,
        now,
        notifications,
      }),
      ask: createTrustAsk({
        database,
        embeddingModel: embedder?.name,
        hasModel: Boolean(llm),
        answerQuestion: (orgId, library, question, index) =>
          answering.answerQuestion(orgId, library, question, undefined, index),
      }),
      admin: createTrustAdmin({ database, now }),
      views: trustViews,
      logo: logo.get,
    },
  }
}

export type Services = ReturnType<typeof createServices>
