import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { EmbeddingModel, LanguageModel } from 'ai'
import { afterAll, beforeAll } from 'vitest'
import type { LlmSettings } from '../../server/answering/llm.ts'
import { type AppDeps, createApp } from '../../server/app.ts'
import type { Clock } from '../../server/auth/tokens.ts'
import { createEventHub } from '../../server/http/event-hub.ts'
import { type Jobs, startJobs } from '../../server/jobs/index.ts'
import { createJobDefinitions } from '../../server/jobs/registry.ts'
import { createLogger, type Logger } from '../../server/logger.ts'
import { createMailer } from '../../server/mail/index.ts'
import { createTxtLookup } from '../../server/modules/account/domains.ts'
import type { AuthLimits } from '../../server/modules/auth/service.ts'
import type { PaymentSettings } from '../../server/modules/billing/routes.ts'
import type { CommentSettings } from '../../server/modules/comments/limits.ts'
import type { LegalSettings } from '../../server/modules/legal/routes.ts'
import type { GoogleSettings } from '../../server/modules/sso/settings.ts'
import { createDiskStorage } from '../../server/storage/index.ts'
import { createTestDatabase } from '../support/db.ts'
import type { MailCapture } from '../support/smtp.ts'

export const TEST_JWT_SECRET = 'test-secret-of-quire-at-least-32-characters-long'
export const TEST_PUBLIC_URL = 'http://quire.test:3000'

export interface TestAppOptions {
  distDir?: string
  /** Mail goes over real SMTP to this capture; without it, to the silent log transport. */
  smtp?: MailCapture
  /** The clock of every expiry decision (LT2). */
  now?: Clock
  authLimits?: Partial<AuthLimits>
  /** Calls per API key (issue 41). */
  apiKeyLimit?: { limit: number; windowMs: number }
  /** Defaults to a silent one. */
  logger?: Logger
  /** Run the job workers (ingestion) against the test database. */
  jobs?: boolean
  maxUploadMb?: number
  urlFetchAllow?: string[]
  parserTimeoutMs?: number
  /** The language-model engine with this (mock) model. */
  llmModel?: LanguageModel
  /** The language-model engine against an OpenAI-compatible server (a scripted one on loopback). */
  llmSettings?: LlmSettings
  /** Embeddings with this (mock) model. */
  embeddingModel?: EmbeddingModel
  /** The checkout provider's settings (the webhook's secret). */
  payments?: PaymentSettings
  /** Google sign-in against a test provider. */
  google?: GoogleSettings
  /** DNS proofs read through this resolver (a loopback DNS server). */
  dnsResolver?: string
  /** The operator's terms and privacy policy (issue 30). */
  legal?: LegalSettings
  /** Limits of comments and mentions, and the gathering of their emails (issue 37). */
  comments?: Partial<CommentSettings>
  /** Caps on open live streams, and how often their sessions are checked (issue 37). */
  streamLimits?: AppDeps['streamLimits']
  streamRecheckMs?: number
}

/** An app on a fresh database of its own, with logs silenced. */
export async function createTestApp(options: TestAppOptions = {}) {
  const database = await createTestDatabase()
  const logger = options.logger ?? createLogger('silent')
  const mailer = createMailer({
    transport: options.smtp ? 'smtp' : 'log',
    smtpUrl: options.smtp?.url,
    from: 'Quire <no-reply@quire.test>',
    logger,
    retryDelaysMs: [50, 200],
  })
  const dataDir = mkdtempSync(path.join(tmpdir(), 'quire-test-data-'))
  const hub = createEventHub({ database, logger })
  const parseLimits = { timeoutMs: options.parserTimeoutMs ?? 30_000 }
  // the models, as the jobs and the app are both given them
  const llm = options.llmModel
    ? { model: options.llmModel }
    : options.llmSettings
      ? { settings: options.llmSettings }
      : undefined
  const embeddings = options.embeddingModel ? { model: options.embeddingModel } : undefined
  let jobs: Jobs | undefined
  if (options.jobs) {
    jobs = await startJobs({
      connectionString: database.url,
      logger,
      workers: true,
      poolSize: 2,
      definitions: createJobDefinitions({
        database,
        storage: createDiskStorage(dataDir),
        logger,
        parseLimits,
        urlFetchAllow: options.urlFetchAllow ?? [],
        llm,
        embeddings,
      }),
    })
  }
  const closing: (() => Promise<void>)[] = []
  const app = createApp({
    database,
    onClose: (hook) => {
      closing.push(hook)
    },
    legal: options.legal,
    comments: options.comments,
    jobs,
    dataDir,
    maxUploadMb: options.maxUploadMb,
    urlFetchAllow: options.urlFetchAllow,
    parseLimits,
    llm,
    embeddings,
    logger,
    version: 'test',
    embedded: true,
    distDir: options.distDir,
    publicUrl: TEST_PUBLIC_URL,
    jwtSecret: TEST_JWT_SECRET,
    mailer,
    hub,
    now: options.now,
    payments: options.payments,
    google: options.google,
    txtLookup: createTxtLookup(options.dnsResolver ?? '127.0.0.1:9'),
    streamLimits: options.streamLimits,
    streamRecheckMs: options.streamRecheckMs,
    apiKeyLimit: options.apiKeyLimit,
    // every request of a test shares one address: only the test of this limit keeps it low
    authLimits: {
      perAddress: { limit: 100_000, windowMs: 60_000 },
      ssoStarts: { limit: 100_000, windowMs: 60_000 },
      ...options.authLimits,
    },
  })
  return {
    app,
    database,
    mailer,
    dataDir,
    jobs,
    hub,
    close: async () => {
      for (const hook of closing) await hook()
      await hub.close()
      await jobs?.stop()
      await mailer.close()
      await database.drop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/**
 * A handle to an object made later (in a `beforeAll`): property reads and method calls go to it
 * once it exists; before that they fail with a clear error.
 */
export function lateBound<T extends object>(current: () => T | undefined, what: string): T {
  return new Proxy({} as T, {
    get(_, key) {
      const target = current()
      if (!target) throw new Error(`${what} is used before its beforeAll has run`)
      const value = Reflect.get(target, key)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

/** One app for the tests of a file or describe block: started before them, closed after. */
export function withTestApp(options: TestAppOptions = {}) {
  let app: Awaited<ReturnType<typeof createTestApp>> | undefined
  beforeAll(async () => {
    app = await createTestApp(options)
  })
  afterAll(async () => {
    await app?.close()
  })
  return lateBound(() => app, 'the test app')
}
