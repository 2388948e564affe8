import type { Context } from 'hono'
import { Hono } from 'hono'
import { z } from 'zod'
import { commentCreateSchema, commentEditSchema } from '../../../contract/collaboration.ts'
import { paths } from '../../../contract/paths.ts'
import type { AuthEnv, Authenticator } from '../../auth/middleware.ts'
import { requireAuth } from '../../auth/middleware.ts'
import type { Permit } from '../../auth/permissions.ts'
import { jsonBody, params } from '../../http/validate.ts'
import type { Commenter, CommentService } from './service.ts'

const idParams = z.object({ id: z.coerce.number().int().positive() })
const at = (path: string) => decodeURIComponent(path).replace('{id}', ':id{[0-9]+}')

/** Comments on a question (issue 29): threads, replies, mentions, edit, delete, resolve. */
export function commentRoutes(options: {
  auth: Authenticator
  permit: Permit
  service: CommentService
}) {
  const { service, permit } = options
  const app = new Hono<AuthEnv>()
  const signedIn = requireAuth(options.auth)
  const Q = paths.questionnaires
  const org = (c: Context<AuthEnv>) => c.get('auth').org.id
  const id = (c: Context<AuthEnv>) => params(c, idParams).id
  const commenter = (c: Context<AuthEnv>): Commenter => {
    const { user, role } = c.get('auth')
    const name = `${user.firstName} ${user.lastName}`.trim() || user.email
    return { id: user.id, name, isAdmin: role === 'admin' }
  }

  app.get(at(Q.comments('{id}')), signedIn, permit('read'), async (c) =>
    c.json(await service.list(org(c), id(c))),
  )
  app.post(at(Q.comments('{id}')), signedIn, permit('questionnaires.write'), async (c) => {
    const body = await jsonBody(c, commentCreateSchema)
    return c.json(await service.create(org(c), commenter(c), id(c), body), 201)
  })

  const edit = async (c: Context<AuthEnv>) => {
    const body = await jsonBody(c, commentEditSchema)
    return c.json(await service.edit(org(c), commenter(c), id(c), body))
  }
  app.patch(at(Q.comment('{id}')), signedIn, permit('questionnaires.write'), edit)
  app.post(at(Q.comment('{id}')), signedIn, permit('questionnaires.write'), edit)
  app.delete(at(Q.comment('{id}')), signedIn, permit('questionnaires.write'), async (c) =>
    c.json(await service.remove(org(c), commenter(c), id(c))),
  )
  app.post(at(Q.resolveComment('{id}')), signedIn, permit('questionnaires.write'), async (c) =>
    c.json(await service.resolve(org(c), commenter(c), id(c), true)),
  )
  app.post(at(Q.reopenComment('{id}')), signedIn, permit('questionnaires.write'), async (c) =>
    c.json(await service.resolve(org(c), commenter(c), id(c), false)),
  )

  return app
}
