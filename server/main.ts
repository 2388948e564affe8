import { fileURLToPath } from 'node:url'
import { ConfigError, loadConfig } from './config.ts'
import { createLogger } from './logger.ts'
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
  const logger = createLogger(config.LOG_LEVEL)
  try {
    const runtime = await startRuntime({ config, logger, http: true, distDir: DIST_DIR })
    stopOnSignals(runtime, logger)
    logger.info(
      { url: config.PUBLIC_URL, port: runtime.port, dataDir: config.DATA_DIR },
      `Quire is running at ${config.PUBLIC_URL}`,
    )
    if (process.stdout.isTTY) console.log(`\n  Quire is running at ${config.PUBLIC_URL}\n`)
  } catch (error) {
    logger.fatal({ err: error }, 'Quire failed to start')
    process.exit(1)
  }
}

await main()
