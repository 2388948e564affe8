import type { Authenticator } from '../../auth/middleware.ts'
import { areaRouter } from '../../http/route-kit.ts'
import { answerRoutes } from './routes/answers.ts'
import { exportRoutes } from './routes/exports.ts'
import { recordRoutes } from './routes/records.ts'

/**
 * The questionnaires area: the questionnaires themselves (routes/records.ts), their exports
 * (routes/exports.ts), and their answers and questions (routes/answers.ts).
 */
export function questionnaireRoutes(
  options: { auth: Authenticator } & Parameters<typeof recordRoutes>[1] &
    Parameters<typeof exportRoutes>[1] &
    Parameters<typeof answerRoutes>[1],
) {
  const app = areaRouter({ auth: options.auth })
  recordRoutes(app, options)
  exportRoutes(app, options)
  answerRoutes(app, options)
  return app.app
}
