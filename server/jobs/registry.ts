import type { LanguageModel } from 'ai'
import { createEmbedder, type EmbeddingOptions } from '../answering/embeddings.ts'
import { createLlmEngine, DEFAULT_LLM_SETTINGS, type LlmSettings } from '../answering/llm.ts'
import type { Database } from '../db/index.ts'
import type { ParseLimits } from '../ingest/index.ts'
import type { Logger } from '../logger.ts'
import type { Mailer } from '../mail/index.ts'
import { createAnsweringService, GENERATE_JOB } from '../modules/answering/service.ts'
import { llmUsage } from '../modules/answering/store.ts'
import { createReviewDigest } from '../modules/knowledge/digest.ts'
import { createNotificationService } from '../modules/notifications/service.ts'
import {
  createWebhookSender,
  emitStaleAnswers,
  STALE_WEBHOOK_CRON,
  STALE_WEBHOOK_JOB,
  WEBHOOK_CRON,
  WEBHOOK_JOB,
  WEBHOOK_SECRET_PURPOSE,
} from '../modules/platform/webhook-sender.ts'
import { createExportService } from '../modules/questionnaires/export.ts'
import { EXPORT_JOB } from '../modules/questionnaires/export-runs.ts'
import { ANALYSE_JOB, createQuestionnaireService } from '../modules/questionnaires/service.ts'
import {
  createRepositoryService,
  INGEST_JOB,
  type VersionReadyHook,
} from '../modules/repository/service.ts'
import { metadataFetcher, ssoHousekeeping } from '../modules/sso/metadata.ts'
import { createSecretBox } from '../modules/sso/secrets.ts'
import type { Storage } from '../storage/index.ts'
import { defineJob, type JobDefinition } from './index.ts'

/**
 * Every job the workers run. API nodes and worker nodes build the same list so that they agree on
 * the queues; handlers get their dependencies here.
 */
export interface JobDeps {
  database: Database
  storage: Storage
  logger: Logger
  parseLimits: Partial<ParseLimits>
  urlFetchAllow: string[]
  /** The language-model engine's settings (LLM_BASE_URL, LLM_MODEL), or a model in tests. */
  llm?: LlmOptions
  /** EMBEDDING_MODEL, or a mock embedding model in tests. */
  embeddings?: EmbeddingOptions
  /** Issue 28: told when a file's new version is ingested (RepositoryDeps.onVersionReady). */
  onVersionReady?: VersionReadyHook
  /** With PUBLIC_URL: the weekly email to owners of library answers due for review. */
  mailer?: Mailer
  publicUrl?: string
  /** The JWT secret: signs the unsubscribe links of the daily work email (issue 29). */
  secret?: string
}

/** Mondays at 08:00 (the server's time): owners hear of the library answers due for review. */
export const REVIEW_DIGEST_JOB = 'library.review-digest'
export const REVIEW_DIGEST_CRON = '0 8 * * 1'
/** Daily at 07:00 (the server's time): assignees hear of work due in 2 days or overdue. */
export const NOTIFICATION_DIGEST_JOB = 'notifications.digest'
/**
 * Every minute a worker sends the notification emails that are due: those held for a person's
 * digest whose window has ended (issue 37), whichever node held them and even if it died since.
 */
export const NOTIFICATION_DELIVERY_JOB = 'notifications.deliver'
const NOTIFICATION_DELIVERY_CRON = '* * * * *'
export const NOTIFICATION_DIGEST_CRON = '0 7 * * *'

export interface LlmOptions {
  settings?: LlmSettings
  model?: LanguageModel
}

/** The language-model engine when one is configured. */
export function llmEngineOf(deps: Pick<JobDeps, 'database' | 'logger' | 'llm'>) {
  if (!deps.llm?.settings && !deps.llm?.model) return undefined
  return createLlmEngine({
    usage: llmUsage(deps.database),
    logger: deps.logger,
    settings: deps.llm.settings ?? {
      baseUrl: 'http://127.0.0.1:1',
      model: 'test',
      ...DEFAULT_LLM_SETTINGS,
    },
    model: deps.llm.model,
  })
}

/** Every ten minutes: expired sign-in flows and codes go, SAML metadata by address is re-read. */
export const SSO_HOUSEKEEPING_JOB = 'sso-housekeeping'

export function createJobDefinitions(deps: JobDeps): JobDefinition[] {
  const embedder = createEmbedder(deps.embeddings)
  const repository = createRepositoryService({
    ...deps,
    jobs: undefined,
    embedder,
    // a new version's passages are read: the answers quoting the file are checked (issue 28)
    onVersionReady:
      deps.onVersionReady ??
      (async (orgId, fileId, version) => {
        await answering.checkSources(orgId, fileId, version)
      }),
  })
  const questionnaires = createQuestionnaireService({ ...deps, jobs: undefined })
  const answering = createAnsweringService({
    ...deps,
    jobs: undefined,
    questionnaires,
    llm: llmEngineOf(deps),
    embedder,
  })
  // jobs: undefined: a failure of the export job is retried by the job system, not here
  const exports = createExportService({ ...deps, jobs: undefined, questionnaires })
  const { mailer, publicUrl } = deps
  const { secret } = deps
  const digest =
    mailer && publicUrl
      ? [
          defineJob({
            name: REVIEW_DIGEST_JOB,
            cron: REVIEW_DIGEST_CRON,
            handler: async () => {
              await createReviewDigest({ ...deps, mailer, publicUrl }).send()
            },
          }),
          ...(secret
            ? [
                defineJob({
                  name: NOTIFICATION_DIGEST_JOB,
                  cron: NOTIFICATION_DIGEST_CRON,
                  handler: async () => {
                    await createNotificationService({ ...deps, mailer, publicUrl, secret }).digest()
                  },
                }),
                defineJob({
                  name: NOTIFICATION_DELIVERY_JOB,
                  cron: NOTIFICATION_DELIVERY_CRON,
                  handler: async () => {
                    await createNotificationService({
                      ...deps,
                      mailer,
                      publicUrl,
                      secret,
                    }).deliver()
                  },
                }),
              ]
            : []),
        ]
      : []
  return [
    ...digest,
    defineJob<{ questionnaireId: number; operationId: number }>({
      name: GENERATE_JOB,
      batchSize: 1,
      handler: async (job) => {
        await answering.run(Number(job.data.questionnaireId), Number(job.data.operationId))
      },
    }),
    defineJob<{ questionnaireId: number }>({
      name: ANALYSE_JOB,
      batchSize: 1,
      handler: async (job) => {
        await questionnaires.analyse(Number(job.data.questionnaireId))
      },
    }),
    defineJob<{ exportId: number }>({
      name: EXPORT_JOB,
      // the file is written in a parser process: one at a time keeps a 2-core node responsive
      batchSize: 1,
      handler: async (job) => {
        await exports.run(Number(job.data.exportId))
      },
    }),
    defineJob<object>({
      name: WEBHOOK_JOB,
      cron: WEBHOOK_CRON,
      handler: async () => {
        if (!deps.secret) return
        const sender = createWebhookSender({
          database: deps.database,
          box: createSecretBox(deps.secret, WEBHOOK_SECRET_PURPOSE),
          allow: deps.urlFetchAllow,
          logger: deps.logger,
          mailer: deps.mailer,
          publicUrl: deps.publicUrl,
        })
        try {
          await sender.run()
        } finally {
          await sender.close()
        }
      },
    }),
    defineJob<object>({
      name: STALE_WEBHOOK_JOB,
      cron: STALE_WEBHOOK_CRON,
      handler: async () => {
        const told = await emitStaleAnswers(deps.database)
        deps.logger.info({ job: STALE_WEBHOOK_JOB, told }, 'stale library answers told')
      },
    }),
    defineJob<object>({
      name: SSO_HOUSEKEEPING_JOB,
      cron: '*/10 * * * *',
      handler: async () => {
        const done = await ssoHousekeeping(deps.database, metadataFetcher(deps.urlFetchAllow))
        deps.logger.info({ job: SSO_HOUSEKEEPING_JOB, ...done }, 'sso housekeeping')
      },
    }),
    defineJob<{ fileId: number }>({
      name: INGEST_JOB,
      // parsers run in their own processes; two at a time keeps a 2-core node responsive
      batchSize: 1,
      handler: async (job) => {
        await repository.ingest(Number(job.data.fileId))
      },
    }),
  ]
}

/** Crash recovery of the repository (DU1), run when a worker node starts and then periodically. */
export function createReaper(
  deps: JobDeps & { jobs?: import('./index.ts').Jobs },
  staleMs: number,
) {
  const repository = createRepositoryService(deps)
  const questionnaires = createQuestionnaireService({ ...deps, jobs: undefined })
  const answering = createAnsweringService({ ...deps, questionnaires, llm: undefined })
  const exports = createExportService({ ...deps, questionnaires })
  /** `atStart` on a single node: the process that held the queued analyses' jobs is gone. */
  return async (atStart = false) => {
    await questionnaires.reap(staleMs, atStart ? 0 : undefined)
    await answering.recover(GENERATION_QUIET_MS)
    // an export cut off with its node is queued again (issue 37): at once on a single node
    await exports.recover(atStart ? 0 : staleMs)
    return repository.reap(staleMs)
  }
}

/**
 * How long a generation must be quiet before a reaper takes it over when no process holds its
 * lease: a run waiting in the queue has no lease yet, and a live run moves every batch.
 */
export const GENERATION_QUIET_MS = 10_000

/**
 * Generations cut off by a crash resume at once (DU2): whether a run is alive is known from its
 * lease, which PostgreSQL frees when its process dies, so this is cheap to run every few seconds.
 */
export function createGenerationRecovery(deps: JobDeps & { jobs?: import('./index.ts').Jobs }) {
  const questionnaires = createQuestionnaireService({ ...deps, jobs: undefined })
  const answering = createAnsweringService({ ...deps, questionnaires, llm: undefined })
  return (quietMs: number) => answering.recover(quietMs)
}

/**
 * At the start of a single-node install (embedded PostgreSQL), before any worker runs: whatever is
 * still 'processing' was cut off by the previous process, so it fails at once with a message that
 * says how to retry, and temp files and orphan blobs of the dead process go (DU1).
 */
export async function recoverAtStart(deps: JobDeps) {
  const repository = createRepositoryService({ ...deps, jobs: undefined })
  const questionnaires = createQuestionnaireService({ ...deps, jobs: undefined })
  await questionnaires.reap(0)
  return repository.reap(0, { requeue: false })
}
