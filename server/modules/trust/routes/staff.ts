import { paths } from '../../../../contract/paths.ts'
import {
  fileTrustSchema,
  qaTrustSchema,
  trustAnalyticsQuerySchema,
  trustGrantSchema,
  trustSettingsUpdateSchema,
} from '../../../../contract/trust.ts'
import type { Permit } from '../../../auth/permissions.ts'
import { type AreaRouter, idParams, orgOf, routePath } from '../../../http/route-kit.ts'
import { jsonBody, params, query } from '../../../http/validate.ts'
import { DEFAULT_ANALYTICS_DAYS, type TrustAdmin } from '../analytics.ts'
import type { TrustRequests } from '../requests.ts'
import type { TrustService } from '../service.ts'
import type { ViewCounter } from '../views.ts'

/**
 * The trust centre as its staff keep it: its admins the page, its analytics and the requests under
 * NDA (organization.manage); those who curate the library (admins and approvers) what of the
 * repository and the library is on it.
 */
export function staffRoutes(
  app: AreaRouter,
  options: {
    permit: Permit
    service: TrustService
    requests: TrustRequests
    admin: TrustAdmin
    views: ViewCounter
  },
) {
  const { service, permit } = options
  const T = paths.trust

  app.get(T.settings, permit('organization.manage'), async (c) =>
    c.json(await service.settings(orgOf(c))),
  )
  app.post(T.settings, permit('organization.manage'), async (c) => {
    const body = await jsonBody(c, trustSettingsUpdateSchema)
    const auth = c.get('auth')
    return c.json(await service.update(auth.org.id, auth.user.id, body))
  })
  app.post(routePath(T.file('{id}')), permit('library.manage'), async (c) => {
    const { id } = params(c, idParams)
    const body = await jsonBody(c, fileTrustSchema)
    const auth = c.get('auth')
    return c.json(await service.setFileVisibility(auth.org.id, auth.user.id, id, body.visibility))
  })
  app.post(routePath(T.qa('{id}')), permit('library.manage'), async (c) => {
    const { id } = params(c, idParams)
    const body = await jsonBody(c, qaTrustSchema)
    const auth = c.get('auth')
    return c.json(await service.setQaVisibility(auth.org.id, auth.user.id, id, body.visibility))
  })

  app.get(T.items, permit('library.manage'), async (c) =>
    c.json(await options.admin.items(orgOf(c))),
  )
  app.get(T.analytics, permit('organization.manage'), async (c) => {
    const { days } = query(c, trustAnalyticsQuerySchema)
    // this node's views are written first: the figures hold every view counted so far here
    await options.views.flush()
    return c.json(await options.admin.analytics(orgOf(c), days ?? DEFAULT_ANALYTICS_DAYS))
  })

  // requests under NDA: the admins decide (the request's person is told by email)
  app.get(T.requests, permit('organization.manage'), async (c) =>
    c.json({ results: await options.requests.list(orgOf(c)) }),
  )
  for (const action of ['approve', 'reject', 'revoke', 'extend'] as const) {
    app.post(routePath(T.request('{id}', action)), permit('organization.manage'), async (c) => {
      const { id } = params(c, idParams)
      const text = (await c.req.text()).trim()
      const body = text ? await jsonBody(c, trustGrantSchema) : {}
      const auth = c.get('auth')
      return c.json(await options.requests.decide(auth.org.id, auth.user.id, id, action, body.days))
    })
  }
}
