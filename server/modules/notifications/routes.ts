import type { Context } from 'hono'
import {
  notificationListQuerySchema,
  notificationPreferencesUpdateSchema,
  notificationReadSchema,
  unsubscribeQuerySchema,
} from '../../../contract/collaboration.ts'
import { paths } from '../../../contract/paths.ts'
import type { AuthEnv, Authenticator } from '../../auth/middleware.ts'
import { bearerToken } from '../../auth/middleware.ts'
import type { Permit } from '../../auth/permissions.ts'
import { areaRouter, orgOf, userOf } from '../../http/route-kit.ts'
import type { StreamRegistry } from '../../http/streams.ts'
import { jsonBody, query } from '../../http/validate.ts'
import type { NotificationService } from './service.ts'

/**
 * Notifications (issue 29): a person's list, marking read, preferences, the live stream of new
 * ones, and the public one-click unsubscribe of mailed links (GET checks, POST unsubscribes).
 */
export function notificationRoutes(options: {
  auth: Authenticator
  permit: Permit
  service: NotificationService
  streams: StreamRegistry
}) {
  const { service, permit } = options
  const app = areaRouter({ auth: options.auth })
  const N = paths.notifications

  app.get(N.list, permit('read'), async (c) =>
    c.json(await service.list(orgOf(c), userOf(c), query(c, notificationListQuerySchema))),
  )
  app.post(N.read, permit('read'), async (c) => {
    const body = await jsonBody(c, notificationReadSchema)
    return c.json(await service.read(orgOf(c), userOf(c), body))
  })

  const P = paths.me.notificationPreferences
  app.get(P, permit('read'), async (c) => c.json(await service.preferences(orgOf(c), userOf(c))))
  const update = async (c: Context<AuthEnv>) => {
    const body = await jsonBody(c, notificationPreferencesUpdateSchema)
    return c.json(await service.updatePreferences(orgOf(c), userOf(c), body.preferences))
  }
  app.put(P, permit('read'), update)
  app.post(P, permit('read'), update)

  // public: the link in an email, and the mail client's one-click POST (RFC 8058)
  app.open.get(N.unsubscribe, (c) =>
    c.json(service.checkUnsubscribe(query(c, unsubscribeQuerySchema).token)),
  )
  app.open.post(N.unsubscribe, async (c) =>
    c.json(await service.unsubscribe(query(c, unsubscribeQuerySchema).token)),
  )

  /** The signed-in person's new notifications as they come, each with the unread count. */
  app.get(N.stream, permit('read'), async (c) => {
    const auth = c.get('auth')
    const token = bearerToken(c.req.header('authorization')) ?? ''
    return options.streams.open(c, auth, token, 'notifications', {
      keys: [`user:${auth.user.id}`],
      org: auth.org.id,
      accept: (event) => event.type === 'notification',
      map: async (event) => {
        const id = Number((event.data as { id?: unknown })?.id)
        const notification = await service.one(auth.org.id, auth.user.id, id)
        if (!notification) return null
        return { notification, unread: await service.unread(auth.org.id, auth.user.id) }
      },
      onOpen: async (send) => {
        await send('unread', { unread: await service.unread(auth.org.id, auth.user.id) })
      },
    })
  })

  return app.app
}
