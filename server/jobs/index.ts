import { type Job, PgBoss, type QueueOptions } from 'pg-boss'
import type { Logger } from '../logger.ts'

/**
 * Long work (ingest, analysis, generation, export, mail) runs as pg-boss jobs on the same
 * PostgreSQL, never inside a request. Modules declare their jobs with `defineJob`; the API process
 * runs the workers in-process by default, and `npm run worker` runs them on other nodes.
 */

/**
 * A running job's worker refreshes its heartbeat every HEARTBEAT_S / 2 seconds; one not heard of
 * for HEARTBEAT_S is taken as dead (its process killed, its node gone), failed, and retried.
 */
export const HEARTBEAT_S = 20
/** How often worker nodes look for dead jobs (and do pg-boss's other supervision). */
const SUPERVISE_S = 10

export interface JobDefinition<T extends object = object> {
  name: string
  queue?: Omit<QueueOptions, 'name'>
  /** Jobs fetched per poll; keep small: one job per questionnaire or file, not per question. */
  batchSize?: number
  /** How often an idle worker looks for work when no notification arrives. */
  pollingIntervalSeconds?: number
  /** A cron expression: worker nodes schedule the job (pg-boss sends it once per tick). */
  cron?: string
  handler: (job: Job<T>) => Promise<unknown>
}

/** Declares a job; the registry holds definitions of every payload type. */
export const defineJob = <T extends object>(definition: JobDefinition<T>) =>
  definition as unknown as JobDefinition

export interface Jobs {
  boss: PgBoss
  /** True once started and until stopped. */
  readonly running: boolean
  readonly workers: boolean
  send<T extends object>(
    name: string,
    data: T,
    options?: Parameters<PgBoss['send']>[2],
  ): Promise<string | null>
  stop(): Promise<void>
}

export interface StartJobsOptions {
  connectionString: string
  logger: Logger
  definitions: JobDefinition[]
  /** Run workers in this process. */
  workers: boolean
  /** Pool size of pg-boss's own connections. */
  poolSize?: number
}

export async function startJobs(options: StartJobsOptions): Promise<Jobs> {
  const log = options.logger.child({ component: 'jobs' })
  const boss = new PgBoss({
    connectionString: options.connectionString,
    max: options.poolSize ?? 4,
    application_name: 'quire-jobs',
    // wake workers at once on new jobs instead of waiting for the next poll
    useListenNotify: true,
    // API-only nodes need no maintenance loop; worker nodes supervise
    supervise: options.workers,
    schedule: options.workers,
    // a job whose worker died (its heartbeat stopped) is failed and retried within
    // HEARTBEAT_S + SUPERVISE_S, not after pg-boss's default expiry of 15 minutes
    superviseIntervalSeconds: SUPERVISE_S,
    monitorIntervalSeconds: SUPERVISE_S,
  })
  boss.on('error', (error) => log.error({ err: error }, 'job system error'))
  boss.on('warning', (warning) => log.warn({ warning }, 'job system warning'))
  await boss.start()
  let running = true
  for (const definition of options.definitions) {
    const queue = { notify: true, heartbeatSeconds: HEARTBEAT_S, ...definition.queue }
    await boss.createQueue(definition.name, queue)
    // queues made by an earlier version keep their options unless told
    await boss.updateQueue(definition.name, { heartbeatSeconds: queue.heartbeatSeconds })
    if (!options.workers) continue
    if (definition.cron) await boss.schedule(definition.name, definition.cron)
    await boss.work<object>(
      definition.name,
      {
        batchSize: definition.batchSize ?? 1,
        pollingIntervalSeconds: definition.pollingIntervalSeconds ?? 1,
        // NOTIFY wakes workers at once, but one that arrives while a fetch is in flight is lost
        // (seen with pg-boss 12.35): keep the backstop poll short instead of its 30 s default.
        notifyPollingIntervalSeconds: definition.pollingIntervalSeconds ?? 1,
      },
      async (jobs) => {
        for (const job of jobs) {
          const started = Date.now()
          try {
            await definition.handler(job)
            log.info({ job: definition.name, id: job.id, ms: Date.now() - started }, 'job done')
          } catch (error) {
            log.error({ job: definition.name, id: job.id, err: error }, 'job failed')
            throw error
          }
        }
      },
    )
  }
  log.info(
    { queues: options.definitions.map((d) => d.name), workers: options.workers },
    'jobs started',
  )
  return {
    boss,
    get running() {
      return running
    },
    workers: options.workers,
    send: (name, data, sendOptions) => boss.send(name, data, sendOptions ?? {}),
    async stop() {
      if (!running) return
      running = false
      // let handlers in flight finish (up to 20 s) before the pool closes
      await boss.stop({ graceful: true, timeout: 20_000, close: true })
    },
  }
}
