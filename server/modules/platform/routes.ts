import { z } from 'zod'
import { paths } from '../../../contract/paths.ts'
import {
  apiKeyCreateSchema,
  questionAskSchema,
  webhookCreateSchema,
} from '../../../contract/platform.ts'
import type { Authenticator } from '../../auth/middleware.ts'
import type { Permit } from '../../auth/permissions.ts'
import { areaRouter, idParams, orgOf, routePath } from '../../http/route-kit.ts'
import { jsonBody, params } from '../../http/validate.ts'
import type { QuestionAnswerer } from './answer.ts'
import type { ApiKeyService } from './api-keys.ts'
import type { WebhookService } from './webhooks.ts'

const replayParams = idParams.extend({ delivery: z.coerce.number().int().positive() })

/**
 * The open platform (issue 41): API keys, kept by the organisation's admins with a person's
 * session (a key never reaches these calls), and one question answered for any reader.
 */
export function platformRoutes(options: {
  auth: Authenticator
  permit: Permit
  keys: ApiKeyService
  answer: QuestionAnswerer
  webhooks: WebhookService
}) {
  const app = areaRouter({ auth: options.auth })
  const P = paths.platform
  const admins = options.permit('organization.manage')

  app.get(P.apiKeys, admins, async (c) => c.json({ results: await options.keys.list(orgOf(c)) }))
  app.post(P.apiKeys, admins, async (c) => {
    const body = await jsonBody(c, apiKeyCreateSchema)
    const auth = c.get('auth')
    return c.json(
      await options.keys.create(auth.org.id, auth.user.id, body, c.get('requestId')),
      201,
    )
  })
  app.post(routePath(P.apiKeyRevoke('{id}')), admins, async (c) => {
    const { id } = params(c, idParams)
    const auth = c.get('auth')
    return c.json(await options.keys.revoke(auth.org.id, auth.user.id, id, c.get('requestId')))
  })
  // outgoing webhooks: registered, listed, removed, enabled again; their log and its replays
  const W = options.webhooks
  app.get(P.webhooks, admins, async (c) => c.json({ results: await W.list(orgOf(c)) }))
  app.post(P.webhooks, admins, async (c) => {
    const body = await jsonBody(c, webhookCreateSchema)
    const auth = c.get('auth')
    return c.json(await W.create(auth.org.id, auth.user.id, body), 201)
  })
  app.post(routePath(P.webhookDelete('{id}')), admins, async (c) => {
    const auth = c.get('auth')
    return c.json(await W.remove(auth.org.id, auth.user.id, params(c, idParams).id))
  })
  app.post(routePath(P.webhookEnable('{id}')), admins, async (c) =>
    c.json(await W.enable(orgOf(c), params(c, idParams).id)),
  )
  app.get(routePath(P.webhookDeliveries('{id}')), admins, async (c) =>
    c.json({ results: await W.deliveries(orgOf(c), params(c, idParams).id) }),
  )
  app.post(
    // the delivery is a number too (routePath makes only names ending in id numeric)
    routePath(P.webhookReplay('{id}', '{delivery}')).replace(':delivery', ':delivery{[0-9]+}'),
    admins,
    async (c) => {
      const { id, delivery } = params(c, replayParams)
      return c.json(await W.replay(orgOf(c), id, delivery))
    },
  )

  // one question answered from the organisation's knowledge: people and keys that may read
  app.post(P.answer, options.permit('read'), async (c) => {
    const body = await jsonBody(c, questionAskSchema)
    return c.json(await options.answer(orgOf(c), body.question))
  })
  return app.app
}
