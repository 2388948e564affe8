import { safeParse } from 'zod/v4/core'
import {
  confirmEmailRequestSchema,
  forcedChangeRequestSchema,
  inviteUserRequestSchema,
  linkTokenRequestSchema,
  loginRequestSchema,
  logoutRequestSchema,
  registerRequestSchema,
  requestPasswordResetSchema,
  setPasswordRequestSchema,
  tokenRefreshRequestSchema,
} from '../../../contract/auth.ts'
import { AUTH_TEXTS } from '../../../contract/auth-texts.ts'
import { ERROR_CODES } from '../../../contract/errors.ts'
import { paths } from '../../../contract/paths.ts'
import {
  magicLinkRedeemSchema,
  userListQuerySchema,
  userRoleSchema,
  userUpdateSchema,
} from '../../../contract/users.ts'
import { type AuthEnv, bearerToken } from '../../auth/middleware.ts'
import type { Permit } from '../../auth/permissions.ts'
import type { Database } from '../../db/index.ts'
import { clientAddress } from '../../http/client-address.ts'
import { apiError, validationError } from '../../http/errors.ts'
import { areaRouter, idParams, routePath } from '../../http/route-kit.ts'
import { jsonBody, params, query, refuseNul } from '../../http/validate.ts'
import type { AuthService } from './service.ts'

/** The calls of spec section 7 'Auth and account' and 'Users' (under /admin/users/). */
export function authRoutes(options: {
  auth: AuthService
  permit: Permit
  database: Database
  trustProxy: boolean
}) {
  const { auth, permit } = options
  const app = areaRouter({ auth })
  // an account that must change its password (AS7) may still make this call
  const changing = areaRouter({ auth, allowPasswordChange: true })
  const address = (c: Parameters<typeof clientAddress>[0]) => clientAddress(c, options.trustProxy)

  app.open.post(paths.auth.login, async (c) => {
    const body = await jsonBody(c, loginRequestSchema)
    return c.json(await auth.login(body, address(c)))
  })

  app.open.post(paths.auth.register, async (c) => {
    let raw: unknown
    try {
      raw = await c.req.json()
    } catch {
      raw = undefined
    }
    refuseNul(raw)
    // every field but the checkbox is required (spec section 5): one plain sentence for any gap
    const parsed = safeParse(registerRequestSchema, raw)
    if (!parsed.success) {
      const error = validationError(parsed.error, AUTH_TEXTS.fieldsRequired)
      throw apiError(400, AUTH_TEXTS.fieldsRequired, {
        msg: AUTH_TEXTS.fieldsRequired,
        detail: error.body.detail,
        code: ERROR_CODES.validation,
      })
    }
    return c.json(await auth.register(parsed.data, address(c)))
  })

  app.open.post(paths.auth.confirmEmail, async (c) => {
    const body = await jsonBody(c, confirmEmailRequestSchema)
    return c.json(await auth.confirmEmail(body.uuid))
  })

  app.open.post(paths.auth.tokenRefresh, async (c) => {
    const body = await jsonBody(c, tokenRefreshRequestSchema)
    return c.json(await auth.refresh(body.refresh))
  })

  app.open.post(paths.auth.requestPasswordReset, async (c) => {
    const body = await jsonBody(c, requestPasswordResetSchema)
    return c.json(await auth.requestPasswordReset(body.email, address(c)))
  })

  app.open.post(paths.auth.validatePasswordResetToken, async (c) => {
    const body = await jsonBody(c, linkTokenRequestSchema)
    return c.json(await auth.validateResetToken(body.uid, body.token))
  })

  app.open.post(paths.auth.confirmPasswordReset, async (c) => {
    const body = await jsonBody(c, setPasswordRequestSchema)
    return c.json(await auth.confirmPasswordReset(body))
  })

  app.open.post(paths.auth.setPassword, async (c) => {
    const body = await jsonBody(c, setPasswordRequestSchema)
    return c.json(await auth.setPassword(body))
  })

  // either credential ends a session: an expired access token must not stop a sign-out
  app.open.post(paths.auth.logout, async (c) => {
    // the body is optional here: a bearer token alone names the session
    const body = (await c.req.text()).trim()
      ? await jsonBody(c, logoutRequestSchema)
      : { refresh: undefined }
    const token = bearerToken(c.req.header('authorization'))
    const claims = token ? await auth.verifyAccess(token) : null
    return c.json(await auth.logout(claims, body.refresh))
  })

  app.open.post(paths.auth.magicLink, async (c) => {
    const body = await jsonBody(c, magicLinkRedeemSchema)
    return c.json(await auth.people.redeemMagicLink(body, address(c)))
  })

  changing.post(paths.auth.changePasswordForced, async (c) => {
    const body = await jsonBody(c, forcedChangeRequestSchema)
    return c.json(await auth.changePasswordForced(c.get('auth'), body.new_password))
  })

  app.post(paths.auth.tokenGet, async (c) => c.json(await auth.tokenGet(c.get('auth'))))

  app.post(paths.users.invite, permit('users.manage'), async (c) => {
    const body = await jsonBody(c, inviteUserRequestSchema)
    return c.json(await auth.inviteUser(c.get('auth'), body, c.get('requestId')), 201)
  })

  // the people of the organisation (admins): another organisation's user is a 404
  const userId = (c: import('hono').Context<AuthEnv>) => params(c, idParams).id
  app.get(paths.users.list, permit('users.manage'), async (c) =>
    c.json(await auth.people.list(c.get('auth'), query(c, userListQuerySchema))),
  )
  app.post(routePath(paths.users.update('{id}')), permit('users.manage'), async (c) => {
    const body = await jsonBody(c, userUpdateSchema)
    return c.json(await auth.people.update(c.get('auth'), userId(c), body, c.get('requestId')))
  })
  app.post(routePath(paths.users.role('{id}')), permit('users.manage'), async (c) => {
    const body = await jsonBody(c, userRoleSchema)
    return c.json(
      await auth.people.changeRole(c.get('auth'), userId(c), body.role, c.get('requestId')),
    )
  })
  app.post(routePath(paths.users.approve('{id}')), permit('users.manage'), async (c) =>
    c.json(await auth.people.approve(c.get('auth'), userId(c), c.get('requestId'))),
  )
  app.post(routePath(paths.users.reject('{id}')), permit('users.manage'), async (c) =>
    c.json(await auth.people.reject(c.get('auth'), userId(c), c.get('requestId'))),
  )
  app.post(routePath(paths.users.remove('{id}')), permit('users.manage'), async (c) =>
    c.json(await auth.people.remove(c.get('auth'), userId(c), c.get('requestId'))),
  )
  app.post(routePath(paths.users.sendMagicLink('{id}')), permit('users.manage'), async (c) =>
    c.json(await auth.people.sendMagicLink(c.get('auth'), userId(c), c.get('requestId'))),
  )
  app.post(
    routePath(paths.users.generateTemporaryPassword('{id}')),
    permit('users.manage'),
    async (c) =>
      c.json(await auth.people.temporaryPassword(c.get('auth'), userId(c), c.get('requestId'))),
  )

  app.app.route('/', changing.app)
  return app.app
}
