import { Hono } from 'hono'
import { API_KEY_PREFIX } from '../../../contract/platform.ts'
import type { Authenticator } from '../../auth/middleware.ts'
import type { Permit } from '../../auth/permissions.ts'
import type { RateRule } from '../../auth/rate-limit.ts'
import type { Database } from '../../db/index.ts'
import type { Jobs } from '../../jobs/index.ts'
import type { Logger } from '../../logger.ts'
import { createSecretBox } from '../sso/secrets.ts'
import { createQuestionAnswerer, type QuestionAnswerer } from './answer.ts'
import { createApiKeyService } from './api-keys.ts'
import { docsRoutes } from './docs.ts'
import { mcpRoutes } from './mcp.ts'
import { buildOpenApi, type RouteEntry } from './openapi.ts'
import { platformRoutes } from './routes.ts'
import { WEBHOOK_JOB, WEBHOOK_SECRET_PURPOSE } from './webhook-sender.ts'
import { createWebhookService } from './webhooks.ts'

/**
 * The open platform (issue 41) as the app mounts it: API keys beside people's sessions, the
 * area's calls under /api/v1 (keys, webhooks, one question answered), the API's description,
 * and what lives outside /api/v1 (the reference at /api/docs, the MCP server at /mcp).
 */
export function createPlatform(deps: {
  database: Database
  logger?: Logger
  now: () => Date
  apiKeyLimit?: RateRule
  jwtSecret: string
  urlFetchAllow?: string[]
  jobs?: Jobs
  publicUrl: string
}) {
  const keys = createApiKeyService({
    database: deps.database,
    logger: deps.logger,
    now: deps.now,
    rule: deps.apiKeyLimit,
  })
  // a worker delivers what the events recorded; the API wakes it
  const webhooks = createWebhookService({
    database: deps.database,
    box: createSecretBox(deps.jwtSecret, WEBHOOK_SECRET_PURPOSE),
    allow: deps.urlFetchAllow ?? [],
    wake: () => {
      deps.jobs
        ?.send(WEBHOOK_JOB, {})
        .catch((error) => deps.logger?.warn({ err: error }, 'the webhook sender was not woken'))
    },
  })

  return {
    keys,
    /** People's sessions, and a bearer `qk_...` as an API key of the organisation. */
    withKeys<A extends Authenticator>(sessions: A): A {
      return {
        ...sessions,
        authenticate: (token: string) =>
          token.startsWith(API_KEY_PREFIX)
            ? keys.authenticate(token)
            : sessions.authenticate(token),
      }
    },
    /** The area's calls under /api/v1. */
    routes(options: {
      auth: Authenticator
      permit: Permit
      answerQuestion: Parameters<typeof createQuestionAnswerer>[0]['answerQuestion']
    }) {
      const answer: QuestionAnswerer = createQuestionAnswerer({
        database: deps.database,
        answerQuestion: options.answerQuestion,
      })
      return platformRoutes({ auth: options.auth, permit: options.permit, keys, webhooks, answer })
    },
    /** GET /api/v1/openapi.json: the document of the routes the app holds, built once. */
    description(routes: () => readonly RouteEntry[]) {
      const app = new Hono()
      let document: ReturnType<typeof buildOpenApi> | undefined
      app.get('/openapi.json', (c) => {
        document ??= buildOpenApi(routes(), { publicUrl: deps.publicUrl })
        return c.json(document)
      })
      return app
    },
    /** /api/docs and /mcp. */
    outside(auth: Authenticator, fetch: (request: Request) => Response | Promise<Response>) {
      const app = new Hono()
      app.route('/', docsRoutes())
      app.route('/', mcpRoutes({ auth, fetch }))
      return app
    },
  }
}
