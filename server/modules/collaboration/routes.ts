import type { Context } from 'hono'
import {
  activityQuerySchema,
  assignSchema,
  customerCreateSchema,
  myAssignmentsQuerySchema,
  reviewActionSchema,
  workUpdateSchema,
} from '../../../contract/collaboration.ts'
import { paths } from '../../../contract/paths.ts'
import { can } from '../../../contract/roles.ts'
import type { AuthEnv, Authenticator } from '../../auth/middleware.ts'
import { bearerToken } from '../../auth/middleware.ts'
import type { Permit } from '../../auth/permissions.ts'
import { areaRouter, idParams, orgOf, routePath, userOf } from '../../http/route-kit.ts'
import type { StreamRegistry } from '../../http/streams.ts'
import { jsonBody, params, query } from '../../http/validate.ts'
import type { CollaborationService } from './service.ts'

/**
 * Working together (issue 29): the work around a questionnaire, customers, assignments, the
 * review steps, my work, the activity and the live stream of a questionnaire.
 */
export function collaborationRoutes(options: {
  auth: Authenticator
  permit: Permit
  service: CollaborationService
  streams: StreamRegistry
}) {
  const { service, permit } = options
  const app = areaRouter({ auth: options.auth })
  const Q = paths.questionnaires

  const work = async (c: Context<AuthEnv>) => {
    const { id } = params(c, idParams)
    const body = await jsonBody(c, workUpdateSchema)
    return c.json(await service.updateWork(orgOf(c), userOf(c), id, body))
  }
  app.post(routePath(Q.work('{id}')), permit('questionnaires.write'), work)
  app.patch(routePath(Q.work('{id}')), permit('questionnaires.write'), work)

  app.get(Q.team, permit('read'), async (c) => c.json(await service.team(orgOf(c))))
  app.get(Q.people, permit('read'), async (c) =>
    c.json({ results: await service.people(orgOf(c)) }),
  )
  app.get(Q.customers, permit('read'), async (c) =>
    c.json({ results: await service.customers(orgOf(c)) }),
  )
  app.post(Q.customers, permit('questionnaires.write'), async (c) => {
    const body = await jsonBody(c, customerCreateSchema)
    return c.json(await service.createCustomer(orgOf(c), userOf(c), body), 201)
  })
  app.get(routePath(Q.customer('{id}')), permit('read'), async (c) => {
    const { id } = params(c, idParams)
    return c.json(await service.customer(orgOf(c), id))
  })

  app.post(routePath(Q.assign('{id}')), permit('questionnaires.write'), async (c) => {
    const { id } = params(c, idParams)
    const body = await jsonBody(c, assignSchema)
    return c.json(await service.assign(orgOf(c), userOf(c), id, body))
  })
  app.get(paths.me.assignments, permit('read'), async (c) => {
    const { limit } = query(c, myAssignmentsQuerySchema)
    return c.json(await service.mine(orgOf(c), userOf(c), limit))
  })
  app.post(routePath(Q.review('{id}')), permit('questionnaires.write'), async (c) => {
    const { id } = params(c, idParams)
    const body = await jsonBody(c, reviewActionSchema)
    const auth = c.get('auth')
    const name = `${auth.user.firstName} ${auth.user.lastName}`.trim() || auth.user.email
    return c.json(
      await service.review(
        orgOf(c),
        { id: userOf(c), name, canApprove: can(auth.role, 'answers.approve') },
        id,
        body,
      ),
    )
  })
  app.get(routePath(Q.activity('{id}')), permit('read'), async (c) => {
    const { id } = params(c, idParams)
    return c.json({ results: await service.activity(orgOf(c), id, query(c, activityQuerySchema)) })
  })

  /** One stream per open questionnaire: who else is here, and what changed. */
  app.get(routePath(Q.events('{id}')), permit('read'), async (c) => {
    const { id } = params(c, idParams)
    const auth = c.get('auth')
    const scope = `questionnaire:${id}`
    // refused before any more work is done for a caller over their share
    options.streams.admit(auth, scope)
    await service.questionnaire(auth.org.id, id)
    const token = bearerToken(c.req.header('authorization')) ?? ''
    let leave = () => {}
    return options.streams.open(c, auth, token, scope, {
      keys: [scope],
      org: auth.org.id,
      // presence between nodes is the presence service's, not the page's
      accept: (event) => event.type !== 'presence-node',
      onOpen: async (send) => {
        const viewer = {
          id: String(auth.user.id),
          name: `${auth.user.firstName} ${auth.user.lastName}`.trim() || auth.user.email,
          email: auth.user.email,
        }
        leave = service.presence.join(auth.org.id, id, viewer, (viewers) => {
          void send('presence', { viewers }).catch(() => {})
        })
      },
      onClose: () => leave(),
    })
  })

  return app.app
}
