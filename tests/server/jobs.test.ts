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
