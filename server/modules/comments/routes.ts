import type { Context } from 'hono'
import { commentCreateSchema, commentEditSchema } from '../../../contract/collaboration.ts'
import { paths } from '../../../contract/paths.ts'
import type { AuthEnv, Authenticator } from '../../auth/middleware.ts'
import type { Permit } from '../../auth/permissions.ts'
import { areaRouter, idParams, orgOf, routePath } from '../../http/route-kit.ts'
import { jsonBody, params } from '../../http/validate.ts'
import type { Commenter, CommentService } from './service.ts'

/** Comments on a question (issue 29): threads, replies, mentions, edit, delete, resolve. */
export function commentRoutes(options: {
  auth: Authenticator
  permit: Permit
  service: CommentService
}) {
  const { service, permit } = options
  const app = areaRouter({ auth: options.auth })
  const Q = paths.questionnaires
  const id = (c: Context<AuthEnv>) => params(c, idParams).id
  const commenter = (c: Context<AuthEnv>): Commenter => {
    const { user, role } = c.get('auth')
    const name = `${user.firstName} ${user.lastName}`.trim() || user.email
    return { id: user.id, name, isAdmin: role === 'admin' }
  }

  app.get(routePath(Q.comments('{id}')), permit('read'), async (c) =>
    c.json(await service.list(orgOf(c), id(c))),
  )
  app.post(routePath(Q.comments('{id}')), permit('questionnaires.write'), async (c) => {
    const body = await jsonBody(c, commentCreateSchema)
    return c.json(await service.create(orgOf(c), commenter(c), id(c), body), 201)
  })

  const edit = async (c: Context<AuthEnv>) => {
    const body = await jsonBody(c, commentEditSchema)
    return c.json(await service.edit(orgOf(c), commenter(c), id(c), body))
  }
  app.patch(routePath(Q.comment('{id}')), permit('questionnaires.write'), edit)
  app.post(routePath(Q.comment('{id}')), permit('questionnaires.write'), edit)
  app.delete(routePath(Q.comment('{id}')), permit('questionnaires.write'), async (c) =>
    c.json(await service.remove(orgOf(c), commenter(c), id(c))),
  )
  app.post(routePath(Q.resolveComment('{id}')), permit('questionnaires.write'), async (c) =>
    c.json(await service.resolve(orgOf(c), commenter(c), id(c), true)),
  )
  app.post(routePath(Q.reopenComment('{id}')), permit('questionnaires.write'), async (c) =>
    c.json(await service.resolve(orgOf(c), commenter(c), id(c), false)),
  )

  return app.app
}
