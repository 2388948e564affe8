import { spawn } from 'node:child_process'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defineJob, type Jobs, startJobs } from '../../server/jobs/index.ts'
import { createLogger } from '../../server/logger.ts'
import { createTestDatabase } from '../support/db.ts'

describe('job system', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>
  let jobs: Jobs
  const seen: { value: number }[] = []
  let resolveSeen: () => void
  const done = new Promise<void>((resolve) => {
    resolveSeen = resolve
  })

  beforeAll(async () => {
    database = await createTestDatabase()
    jobs = await startJobs({
      connectionString: database.url,
      logger: createLogger(process.env.JOBS_LOG ?? 'silent'),
      workers: true,
      definitions: [
        defineJob<{ value: number }>({
          name: 'test-echo',
          handler: async (job) => {
            seen.push(job.data)
            if (seen.length === 3) resolveSeen()
          },
        }),
      ],
    })
  })
  afterAll(async () => {
    await jobs.stop()
    await database.drop()
  })

  it('runs sent jobs on in-process workers, each once', async () => {
    expect(jobs.running).toBe(true)
    for (const value of [1, 2, 3]) await jobs.send('test-echo', { value })
    await done
    expect(seen.map((item) => item.value).sort()).toEqual([1, 2, 3])
  })

  it('keeps its tables in its own schema, apart from the application tables', async () => {
    const result = await database.pool.query(
      "select count(*)::int as n from information_schema.tables where table_schema = 'pgboss'",
    )
    expect(result.rows[0].n).toBeGreaterThan(0)
  })
})

describe('a job whose worker died (issue 37)', () => {
  it('is taken up again by another node within a minute, not after the 15-minute expiry', async () => {
    const database = await createTestDatabase()
    const worker = spawn(
      process.execPath,
      [path.join(import.meta.dirname, '../support/stuck-worker.ts'), database.url],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    )
    let printed = ''
    const said = (what: string) =>
      new Promise<void>((resolve) => {
        const look = () => {
          if (printed.includes(what)) resolve()
        }
        worker.stdout.on('data', (chunk) => {
          printed += chunk
          look()
        })
        look()
      })
    let other: Jobs | undefined
    try {
      await said('ready')
      // the job is sent by an API-only node; the stuck worker takes it
      const sender = await startJobs({
        connectionString: database.url,
        logger: createLogger('silent'),
        workers: false,
        definitions: [{ name: 'test-stuck', handler: async () => {} }],
      })
      const id = await sender.send('test-stuck', { n: 1 }, { retryLimit: 2, retryDelay: 1 })
      await said(`started ${id}`)
      await sender.stop()
      worker.kill('SIGKILL')
      const killedAt = Date.now()
      // another worker node: it supervises, finds the dead job by its heartbeat and runs it
      let finished: number | null = null
      other = await startJobs({
        connectionString: database.url,
        logger: createLogger('silent'),
        workers: true,
        definitions: [
          {
            name: 'test-stuck',
            handler: async () => {
              finished = Date.now()
            },
          },
        ],
      })
      for (let i = 0; i < 1_200 && finished === null; i++)
        await new Promise((r) => setTimeout(r, 50))
      expect(finished, 'the job was not taken up again within a minute').not.toBeNull()
      expect((finished as unknown as number) - killedAt).toBeLessThan(60_000)
    } finally {
      if (worker.exitCode === null) worker.kill('SIGKILL')
      await other?.stop()
      await database.drop()
    }
  }, 90_000)
})
