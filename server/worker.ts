import { ConfigError, loadConfig } from './config.ts'
import { logDestination } from './log-format.ts'
import { createLogger } from './logger.ts'
import { startRuntime, stopOnSignals } from './runtime.ts'

/** A worker-only process (`npm run worker`): runs jobs, serves no HTTP. Start as many as needed. */

try {
  const config = loadConfig()
  const logger = createLogger(
    config.LOG_LEVEL,
    logDestination(config.LOG_FORMAT, config.LOG_LEVEL),
  ).child({ role: 'worker' })
  try {
    const runtime = await startRuntime({ config, logger, http: false })
    stopOnSignals(runtime, logger)
    logger.info('worker running')
  } catch (error) {
    logger.fatal({ err: error }, 'worker failed to start')
    process.exit(1)
  }
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message)
    process.exit(78)
  }
  throw error
}
