import { Hono } from 'hono'
import { ERROR_CODES } from '../../../contract/errors.ts'
import {
  EXTENSION_EXPIRES_IN_S,
  EXTENSION_TEXTS,
  type ExtensionConfig,
  type ExtensionHandoffResponse,
  extensionHandoffRequestSchema,
  extensionRedirectUris,
} from '../../../contract/extension.ts'
import { paths } from '../../../contract/paths.ts'
import type { AuthContext } from '../../auth/context.ts'
import { type AuthEnv, type Authenticator, requireAuth } from '../../auth/middleware.ts'
import type { Permit } from '../../auth/permissions.ts'
import { apiError } from '../../http/errors.ts'
import { jsonBody } from '../../http/validate.ts'

/**
 * The browser extension's hand-off (AS13): the allowlisted extension ids, and for a signed-in
 * user a session of the extension's own (a child of the user's: it ends with it) handed back
 * only to `chrome-extension://<allowed id>/`, byte-equal, with the extension's state.
 */
export function extensionRoutes(options: {
  auth: Authenticator
  permit: Permit
  extensionIds: string[]
  tokenGet: (auth: AuthContext) => Promise<{ access: string; refresh: string }>
}) {
  const app = new Hono<AuthEnv>()
  const allowed = new Set(options.extensionIds.flatMap(extensionRedirectUris))

  app.get(paths.extension.config, (c) => {
    const body: ExtensionConfig = { extension_ids: options.extensionIds }
    return c.json(body)
  })
  app.post(
    paths.extension.handoff,
    requireAuth(options.auth),
    options.permit('read'),
    async (c) => {
      const body = await jsonBody(c, extensionHandoffRequestSchema)
      if (!allowed.has(body.redirect_uri))
        throw apiError(400, EXTENSION_TEXTS.notAllowed, { code: ERROR_CODES.validation })
      const tokens = await options.tokenGet(c.get('auth'))
      const answer: ExtensionHandoffResponse = {
        access_token: tokens.access,
        refresh_token: tokens.refresh,
        expires_in: EXTENSION_EXPIRES_IN_S,
        state: body.state,
      }
      return c.json(answer)
    },
  )
  return app
}
