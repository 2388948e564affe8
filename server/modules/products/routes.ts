import { Hono } from 'hono'
import { z } from 'zod'
import { paths } from '../../../contract/paths.ts'
import {
  productAssignSchema,
  productCreateSchema,
  productUpdateSchema,
} from '../../../contract/products.ts'
import type { AuthEnv, Authenticator } from '../../auth/middleware.ts'
import { requireAuth } from '../../auth/middleware.ts'
import type { Permit } from '../../auth/permissions.ts'
import { jsonBody, params } from '../../http/validate.ts'
import type { ProductService } from './service.ts'

const idParams = z.object({ id: z.coerce.number().int().positive() })
const at = (path: string) => decodeURIComponent(path).replace('{id}', ':id{[0-9]+}')

/**
 * Products (issue 38): everyone reads them; those who curate the library add, edit and delete
 * them; whoever may upload may say which product a file, answer or questionnaire speaks for.
 */
export function productRoutes(options: {
  auth: Authenticator
  permit: Permit
  service: ProductService
}) {
  const { service, permit } = options
  const app = new Hono<AuthEnv>()
  const P = paths.products
  const signedIn = requireAuth(options.auth)

  app.get(P.list, signedIn, permit('read'), async (c) =>
    c.json({ results: await service.list(c.get('auth').org.id) }),
  )
  app.post(P.list, signedIn, permit('library.manage'), async (c) => {
    const body = await jsonBody(c, productCreateSchema)
    const auth = c.get('auth')
    return c.json(await service.create(auth.org.id, auth.user.id, body), 201)
  })
  app.post(P.assign, signedIn, permit('repository.write'), async (c) => {
    const body = await jsonBody(c, productAssignSchema)
    const auth = c.get('auth')
    return c.json(await service.assign(auth.org.id, auth.user.id, body))
  })
  app.get(at(P.item('{id}')), signedIn, permit('read'), async (c) => {
    const { id } = params(c, idParams)
    return c.json(await service.get(c.get('auth').org.id, id))
  })
  app.patch(at(P.item('{id}')), signedIn, permit('library.manage'), async (c) => {
    const { id } = params(c, idParams)
    const body = await jsonBody(c, productUpdateSchema)
    const auth = c.get('auth')
    return c.json(await service.update(auth.org.id, auth.user.id, id, body))
  })
  app.delete(at(P.item('{id}')), signedIn, permit('library.manage'), async (c) => {
    const { id } = params(c, idParams)
    const auth = c.get('auth')
    return c.json(await service.remove(auth.org.id, auth.user.id, id))
  })
  return app
}
