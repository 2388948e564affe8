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
import {
  PORTAL_TEXTS,
  portalFilledRequestSchema,
  portalReadRequestSchema,
} from '../../../contract/portal.ts'
import type { AuthContext } from '../../auth/context.ts'
import type { Authenticator } from '../../auth/middleware.ts'
import type { Permit } from '../../auth/permissions.ts'
import { auditBy } from '../../db/audit.ts'
import { apiError, validationError } from '../../http/errors.ts'
import { areaRouter } from '../../http/route-kit.ts'
import { jsonBody, readJson } from '../../http/validate.ts'
import type { Portal } from './portal.ts'

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
  const app = areaRouter({ auth: options.auth })
  const allowed = new Set(options.extensionIds.flatMap(extensionRedirectUris))

  app.open.get(paths.extension.config, (c) => {
    const body: ExtensionConfig = { extension_ids: options.extensionIds }
    return c.json(body)
  })
  app.post(paths.extension.handoff, options.permit('read'), async (c) => {
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
  })
  return app.app
}

/**
 * Issue 42: a portal page's questions, kept as a questionnaire and drafted; what was filled.
 * The extension's session (or a person's) with the right to work on questionnaires.
 */
export function portalRoutes(options: { auth: Authenticator; permit: Permit; portal: Portal }) {
  const app = areaRouter({ auth: options.auth })
  const E = paths.extension
  app.post(E.portalRead, options.permit('questionnaires.write'), async (c) => {
    const raw = await readJson(c)
    // a page without question fields is said so in plain words, not as a field's error
    if (
      Array.isArray((raw as { fields?: unknown } | null)?.fields) &&
      !(raw as { fields: unknown[] }).fields.length
    )
      throw apiError(400, PORTAL_TEXTS.noFields, { code: ERROR_CODES.validation })
    const parsed = portalReadRequestSchema.safeParse(raw)
    if (!parsed.success) throw validationError(parsed.error)
    const body = parsed.data
    return c.json(await options.portal.read(auditBy(c.get('auth'), c.get('requestId')), body))
  })
  app.post(E.portalFilled, options.permit('questionnaires.write'), async (c) => {
    const body = await jsonBody(c, portalFilledRequestSchema)
    return c.json(await options.portal.filled(auditBy(c.get('auth'), c.get('requestId')), body))
  })
  return app.app
}
