import { fileURLToPath } from 'node:url'
import { ConfigError, loadConfig } from './config.ts'
import { logDestination } from './log-format.ts'
import { createLogger } from './logger.ts'
import { MAIL_LOG_NOTICE } from './mail/index.ts'
import { startRuntime, stopOnSignals } from './runtime.ts'

/** The API process: database, migrations, job workers and HTTP. */

const DIST_DIR = fileURLToPath(new URL('../dist', import.meta.url))

async function main() {
  let config: ReturnType<typeof loadConfig>
  try {
    config = loadConfig()
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message)
      process.exit(78)
    }
    throw error
  }
  const logger = createLogger(config.LOG_LEVEL, logDestination(config.LOG_FORMAT, config.LOG_LEVEL))
  try {
    const runtime = await startRuntime({ config, logger, http: true, distDir: DIST_DIR })
    // under `npm start`, also stop when npm goes without passing its signal on
    stopOnSignals(runtime, logger, { npmParent: Boolean(process.env.npm_lifecycle_event) })
    logger.info(
      { url: config.PUBLIC_URL, port: runtime.port, dataDir: config.DATA_DIR },
      `Quire is running at ${config.PUBLIC_URL}`,
    )
    // a first user waits for a confirmation email that is never sent: say where it goes (issue 39)
    if (config.MAIL_TRANSPORT === 'log') logger.info(MAIL_LOG_NOTICE)
    // JSON on a terminal (LOG_FORMAT=json): the address still stands out
    if (process.stdout.isTTY && config.LOG_FORMAT === 'json')
      console.log(`\n  Quire is running at ${config.PUBLIC_URL}\n`)
  } catch (error) {
    logger.fatal({ err: error }, 'Quire failed to start')
    process.exit(1)
  }
}

await main()
