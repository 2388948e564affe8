import type { Logger } from '../logger.ts'

/** What the app's middleware puts in every request's context: routes read it, never set it. */
export interface AppEnv {
  Variables: {
    requestId: string
    log: Logger
  }
}
