import { paths } from '../../../contract/paths.ts'
import {
  productAssignSchema,
  productCreateSchema,
  productUpdateSchema,
} from '../../../contract/products.ts'
import type { Authenticator } from '../../auth/middleware.ts'
import type { Permit } from '../../auth/permissions.ts'
import { areaRouter, idParams, orgOf, routePath } from '../../http/route-kit.ts'
import { jsonBody, params } from '../../http/validate.ts'
import type { ProductService } from './service.ts'

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
  const app = areaRouter({ auth: options.auth })
  const P = paths.products

  app.get(P.list, permit('read'), async (c) => c.json({ results: await service.list(orgOf(c)) }))
  app.post(P.list, permit('library.manage'), async (c) => {
    const body = await jsonBody(c, productCreateSchema)
    const auth = c.get('auth')
    return c.json(await service.create(auth.org.id, auth.user.id, body), 201)
  })
  app.post(P.assign, permit('repository.write'), async (c) => {
    const body = await jsonBody(c, productAssignSchema)
    const auth = c.get('auth')
    return c.json(await service.assign(auth.org.id, auth.user.id, body))
  })
  app.get(routePath(P.item('{id}')), permit('read'), async (c) => {
    const { id } = params(c, idParams)
    return c.json(await service.get(orgOf(c), id))
  })
  app.patch(routePath(P.item('{id}')), permit('library.manage'), async (c) => {
    const { id } = params(c, idParams)
    const body = await jsonBody(c, productUpdateSchema)
    const auth = c.get('auth')
    return c.json(await service.update(auth.org.id, auth.user.id, id, body))
  })
  app.delete(routePath(P.item('{id}')), permit('library.manage'), async (c) => {
    const { id } = params(c, idParams)
    const auth = c.get('auth')
    return c.json(await service.remove(auth.org.id, auth.user.id, id))
  })
  return app.app
}
