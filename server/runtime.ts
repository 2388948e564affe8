import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import type { Server } from 'node:http'
import path from 'node:path'
import { serve } from '@hono/node-server'
import type { EmbeddingOptions } from './answering/embeddings.ts'
import { DEFAULT_LLM_SETTINGS } from './answering/llm.ts'
import { createApp } from './app.ts'
import type { Config } from './config.ts'
import { type DatabaseWatch, watchDatabase } from './db/availability.ts'
import {
  attachEmbeddedPostgres,
  type EmbeddedPostgres,
  startEmbeddedPostgres,
} from './db/embedded.ts'
import { type Database, openDatabase, runMigrations } from './db/index.ts'
import { createEventHub } from './http/event-hub.ts'
import { type Jobs, startJobs } from './jobs/index.ts'
import {
  createGenerationRecovery,
  createJobDefinitions,
  createReaper,
  GENERATION_QUIET_MS,
  type JobDeps,
  recoverAtStart,
} from './jobs/registry.ts'
import type { Logger } from './logger.ts'
import { createMailer } from './mail/index.ts'
import { createTxtLookup } from './modules/account/domains.ts'
import { configureTiers, syncLicenses } from './modules/account/license.ts'
import { commentSettingsOf } from './modules/comments/limits.ts'
import { watchParents } from './parent-watch.ts'
import { createDiskStorage, isAlive } from './storage/index.ts'
import { VERSION } from './version.ts'

/** How often worker nodes look for generations whose process died (their lease is free). */
const GENERATION_RECOVERY_EVERY_MS = 5_000

/**
 * Starts the parts of Quire a process runs: the database (embedded unless DATABASE_URL is set),
 * migrations, the job system and, for the API process, the HTTP server. `stop()` takes them down
 * in reverse order.
 */

export interface Runtime {
  url?: string
  port?: number
  database: Database
  jobs: Jobs
  stop(): Promise<void>
}

export interface RuntimeOptions {
  config: Config
  logger: Logger
  /** Serve HTTP (the API process) or only run workers. */
  http: boolean
  distDir?: string
}

/** One API server per DATA_DIR: a second one would fight the first over the embedded cluster. */
function claimDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, 'server.pid')
  if (existsSync(file)) {
    const pid = Number(readFileSync(file, 'utf8').trim())
    if (pid && pid !== process.pid && isAlive(pid)) {
      throw new Error(
        `Quire is already running on DATA_DIR ${dataDir} (pid ${pid}). Stop it first, or set DATA_DIR to another directory.`,
      )
    }
  }
  writeFileSync(file, `${process.pid}\n`)
  return () => {
    try {
      if (Number(readFileSync(file, 'utf8').trim()) === process.pid) rmSync(file, { force: true })
    } catch {
      // already gone
    }
  }
}

export async function startRuntime(options: RuntimeOptions): Promise<Runtime> {
  const { config, logger } = options
  const cleanups: (() => Promise<void> | void)[] = []
  const stopAll = async () => {
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup()
      } catch (error) {
        logger.error({ err: error }, 'error during shutdown')
      }
    }
    cleanups.length = 0
  }

  let databaseWatch: DatabaseWatch | undefined
  try {
    let databaseUrl = config.DATABASE_URL
    let embedded: EmbeddedPostgres | undefined
    if (!databaseUrl && options.http) {
      cleanups.push(claimDataDir(config.DATA_DIR))
      const pgLog = logger.child({ component: 'postgres' })
      embedded = await startEmbeddedPostgres({
        dataDir: config.DATA_DIR,
        fsync: config.EMBEDDED_PG_FSYNC,
        ownProcessGroup: true,
        log: (message) => pgLog.info(message),
        // the supervisor restarts it; meanwhile calls answer 503 with Retry-After
        onExit: () => databaseWatch?.markDown('embedded PostgreSQL exited'),
      })
      const cluster = embedded
      cleanups.push(() => cluster.stop())
      databaseUrl = embedded.url
    } else if (!databaseUrl) {
      databaseUrl = attachEmbeddedPostgres(config.DATA_DIR)
      if (!databaseUrl) {
        throw new Error(
          `No database: set DATABASE_URL, or start the server (npm start) on DATA_DIR ${config.DATA_DIR} first so workers can use its embedded PostgreSQL.`,
        )
      }
    }

    const database = openDatabase(databaseUrl, config.DATABASE_POOL_SIZE)
    cleanups.push(() => database.close())
    const external = Boolean(config.DATABASE_URL)
    databaseWatch = watchDatabase(database.pool, {
      logger,
      exitAfterMs:
        external && config.DATABASE_OUTAGE_EXIT_S
          ? config.DATABASE_OUTAGE_EXIT_S * 1000
          : undefined,
      // EX_TEMPFAIL: a supervisor should start us again
      onLongOutage: () => process.exit(75),
    })
    const watch = databaseWatch
    cleanups.push(() => watch.stop())
    await runMigrations(database)
    // a bad tiers file stops the start here, naming what is wrong
    const tiers = configureTiers(config.LICENSE_TIERS_FILE)
    const synced = await syncLicenses(database.pool, tiers)
    if (synced) logger.info({ licenses: synced }, 'licenses brought to their configured tiers')

    const mailer = createMailer({
      transport: config.MAIL_TRANSPORT,
      smtpUrl: config.SMTP_URL,
      from: config.MAIL_FROM,
      logger,
    })
    // stopped after the HTTP server and the workers (cleanups run in reverse): mail of the last
    // requests and jobs still leaves
    cleanups.push(() => mailer.close())
    const jobDeps: JobDeps = {
      mailer,
      publicUrl: config.PUBLIC_URL,
      secret: config.JWT_SECRET,
      database,
      storage: createDiskStorage(config.DATA_DIR),
      logger,
      parseLimits: {
        timeoutMs: config.PARSER_TIMEOUT_MS,
        memoryMb: config.PARSER_MEMORY_MB,
        rssMb: config.PARSER_RSS_MB,
      },
      urlFetchAllow: config.URL_FETCH_ALLOW,
      llm:
        config.LLM_BASE_URL && config.LLM_MODEL
          ? {
              settings: {
                baseUrl: config.LLM_BASE_URL,
                apiKey: config.LLM_API_KEY,
                model: config.LLM_MODEL,
                ...DEFAULT_LLM_SETTINGS,
              },
            }
          : undefined,
      embeddings: embeddingOptionsOf(config),
    }
    if (embedded) await recoverAtStart(jobDeps)
    const jobs = await startJobs({
      connectionString: databaseUrl,
      logger,
      definitions: createJobDefinitions(jobDeps),
      workers: options.http ? config.WORKERS : true,
    })
    cleanups.push(() => jobs.stop())
    const runsWorkers = options.http ? config.WORKERS : true
    if (runsWorkers) {
      // DU1: after a crash, fail stuck files, sweep temp files and orphan blobs, re-queue lost jobs
      const reap = createReaper({ ...jobDeps, jobs }, config.PARSER_TIMEOUT_MS + 60_000)
      const runReaper = (atStart = false) =>
        reap(atStart).catch((error) => logger.warn({ err: error }, 'repository reaper failed'))
      // a questionnaire left queued by the previous process is analysed at once, not in minutes
      await runReaper(Boolean(embedded))
      const timer = setInterval(() => runReaper(), 5 * 60_000)
      timer.unref()
      cleanups.push(() => clearInterval(timer))
      // DU2: a generation whose process died resumes at once, here at start and then within seconds
      const recoverGenerations = createGenerationRecovery({ ...jobDeps, jobs })
      await recoverGenerations(0)
      const generations = setInterval(
        () =>
          recoverGenerations(GENERATION_QUIET_MS).catch((error) =>
            logger.warn({ err: error }, 'generation recovery failed'),
          ),
        GENERATION_RECOVERY_EVERY_MS,
      )
      generations.unref()
      cleanups.push(() => clearInterval(generations))
    }

    if (!options.http) return { database, jobs, stop: stopAll }

    const hub = createEventHub({ database, logger })
    cleanups.push(() => hub.close())
    const app = createApp({
      hub,
      database,
      logger,
      jobs,
      version: VERSION,
      legal: {
        terms: { url: config.TERMS_URL, file: config.TERMS_FILE },
        privacy: { url: config.PRIVACY_URL, file: config.PRIVACY_FILE },
        operator: config.OPERATOR_NAME,
        contact: config.OPERATOR_EMAIL,
      },
      embedded: Boolean(embedded),
      distDir: options.distDir,
      publicUrl: config.PUBLIC_URL,
      jwtSecret: config.JWT_SECRET,
      mailer,
      trustProxy: config.TRUST_PROXY,
      dataDir: config.DATA_DIR,
      maxUploadMb: config.MAX_UPLOAD_MB,
      urlFetchAllow: config.URL_FETCH_ALLOW,
      parseLimits: jobDeps.parseLimits,
      llm: jobDeps.llm,
      embeddings: jobDeps.embeddings,
      databaseWatch,
      tiers,
      extensionIds: config.EXTENSION_IDS,
      txtLookup: createTxtLookup(config.DNS_RESOLVER),
      comments: commentSettingsOf(config),
      // run after the HTTP server stops (cleanups run in reverse), before the database closes
      onClose: (hook) => {
        cleanups.push(hook)
      },
      streamLimits: {
        perPerson: config.STREAM_MAX_PER_PERSON,
        perQuestionnaire: config.STREAM_MAX_PER_QUESTIONNAIRE,
        perSession: config.STREAM_MAX_PER_SESSION,
        perNode: config.STREAM_MAX_PER_NODE,
      },
      google:
        config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET
          ? {
              clientId: config.GOOGLE_CLIENT_ID,
              clientSecret: config.GOOGLE_CLIENT_SECRET,
              issuer: config.GOOGLE_ISSUER,
            }
          : undefined,
      payments: {
        enabled: config.PADDLE_ENABLED,
        environment: config.PADDLE_ENVIRONMENT,
        clientToken: config.PADDLE_CLIENT_TOKEN,
        webhookSecret: config.PADDLE_WEBHOOK_SECRET,
      },
      authLimits: {
        perAddress: { limit: config.AUTH_RATE_LIMIT_PER_MINUTE, windowMs: 60_000, bucketMs: 5_000 },
      },
      apiKeyLimit: { limit: config.API_KEY_RATE_LIMIT_PER_MINUTE, windowMs: 60_000 },
    })
    const server = await new Promise<Server>((resolve, reject) => {
      const instance = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, () =>
        resolve(instance as Server),
      ) as Server
      instance.once('error', reject)
    })
    server.keepAliveTimeout = 65_000
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve())
          server.closeIdleConnections()
          setTimeout(() => {
            server.closeAllConnections()
            resolve()
          }, 10_000).unref()
        }),
    )
    const address = server.address()
    const port = typeof address === 'object' && address ? address.port : config.PORT
    return { url: `http://localhost:${port}`, port, database, jobs, stop: stopAll }
  } catch (error) {
    await stopAll()
    throw error
  }
}

/** Signals this close together are one request delivered twice. */
const SAME_SIGNAL_MS = 1_000

export interface StopOptions {
  /** Also stop when the processes that started this one go (`npm start`: npm and its shell). */
  npmParent?: boolean
}

/** Stops the runtime on SIGINT/SIGTERM, or when npm has gone; a later signal exits at once. */
export function stopOnSignals(runtime: Runtime, logger: Logger, options: StopOptions = {}) {
  let stopping = false
  let firstSignalAt = 0
  const stop = (why: { signal?: NodeJS.Signals; reason?: string }) => {
    if (stopping) return
    stopping = true
    logger.info(why, why.signal ? `shutting down (${why.signal})` : `shutting down: ${why.reason}`)
    runtime.stop().then(
      () => {
        logger.info('stopped')
        process.exit(0)
      },
      (error) => {
        logger.error({ err: error }, 'shutdown failed')
        process.exit(1)
      },
    )
  }
  const handler = (signal: NodeJS.Signals) => {
    // a Ctrl-C under `npm start` arrives twice at once: from the terminal, and passed on by npm
    if (firstSignalAt && Date.now() - firstSignalAt > SAME_SIGNAL_MS) {
      logger.warn({ signal }, 'second signal: exiting now')
      process.exit(1)
    }
    firstSignalAt ||= Date.now()
    stop({ signal })
  }
  process.on('SIGINT', handler)
  process.on('SIGTERM', handler)
  if (options.npmParent) watchParents(() => stop({ reason: 'npm, which started it, has exited' }))
}

/** EMBEDDING_MODEL on EMBEDDING_BASE_URL (else LLM_BASE_URL), or none. */
export function embeddingOptionsOf(config: {
  EMBEDDING_MODEL?: string
  EMBEDDING_BASE_URL?: string
  EMBEDDING_API_KEY?: string
  LLM_BASE_URL?: string
  LLM_API_KEY?: string
}): EmbeddingOptions | undefined {
  const baseUrl = config.EMBEDDING_BASE_URL ?? config.LLM_BASE_URL
  if (!config.EMBEDDING_MODEL || !baseUrl) return undefined
  return {
    settings: {
      baseUrl,
      apiKey: config.EMBEDDING_API_KEY ?? config.LLM_API_KEY,
      model: config.EMBEDDING_MODEL,
    },
  }
}
