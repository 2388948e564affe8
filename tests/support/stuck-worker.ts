import { startJobs } from '../../server/jobs/index.ts'
import { createLogger } from '../../server/logger.ts'

/**
 * A worker node that takes one job of `test-stuck` and never finishes it, for the test that kills
 * it (tests/server/jobs.test.ts): it prints `started <id>` when the handler has begun.
 */
const connectionString = process.argv[2] as string
await startJobs({
  connectionString,
  logger: createLogger('silent'),
  workers: true,
  definitions: [
    {
      name: 'test-stuck',
      handler: async (job) => {
        process.stdout.write(`started ${job.id}\n`)
        await new Promise(() => {})
      },
    },
  ],
})
process.stdout.write('ready\n')
