import { Hono } from 'hono'
import { z } from 'zod'
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
import { type AuthEnv, bearerToken, requireAuth } from '../../auth/middleware.ts'
import type { Permit } from '../../auth/permissions.ts'
import type { Database } from '../../db/index.ts'
import { clientAddress } from '../../http/client-address.ts'
import type { AppEnv } from '../../http/env.ts'
import { apiError, validationError } from '../../http/errors.ts'
import { jsonBody, params, query, refuseNul } from '../../http/validate.ts'
import type { AuthService } from './service.ts'

const idParams = z.object({ id: z.coerce.number().int().positive() })
const at = (path: string) => decodeURIComponent(path).replace('{id}', ':id{[0-9]+}')

/** The calls of spec section 7 'Auth and account' and 'Users' (under /admin/users/). */
export function authRoutes(options: {
  auth: AuthService
  permit: Permit
  database: Database
  trustProxy: boolean
}) {
  const { auth, permit } = options
  const app = new Hono<AppEnv>()
  const authed = new Hono<AuthEnv>()
  const address = (c: Parameters<typeof clientAddress>[0]) => clientAddress(c, options.trustProxy)

  app.post(paths.auth.login, async (c) => {
    const body = await jsonBody(c, loginRequestSchema)
    return c.json(await auth.login(body, address(c)))
  })

  app.post(paths.auth.register, async (c) => {
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

  app.post(paths.auth.confirmEmail, async (c) => {
    const body = await jsonBody(c, confirmEmailRequestSchema)
    return c.json(await auth.confirmEmail(body.uuid))
  })

  app.post(paths.auth.tokenRefresh, async (c) => {
    const body = await jsonBody(c, tokenRefreshRequestSchema)
    return c.json(await auth.refresh(body.refresh))
  })

  app.post(paths.auth.requestPasswordReset, async (c) => {
    const body = await jsonBody(c, requestPasswordResetSchema)
    return c.json(await auth.requestPasswordReset(body.email, address(c)))
  })

  app.post(paths.auth.validatePasswordResetToken, async (c) => {
    const body = await jsonBody(c, linkTokenRequestSchema)
    return c.json(await auth.validateResetToken(body.uid, body.token))
  })

  app.post(paths.auth.confirmPasswordReset, async (c) => {
    const body = await jsonBody(c, setPasswordRequestSchema)
    return c.json(await auth.confirmPasswordReset(body))
  })

  app.post(paths.auth.setPassword, async (c) => {
    const body = await jsonBody(c, setPasswordRequestSchema)
    return c.json(await auth.setPassword(body))
  })

  // either credential ends a session: an expired access token must not stop a sign-out
  app.post(paths.auth.logout, async (c) => {
    // the body is optional here: a bearer token alone names the session
    const body = (await c.req.text()).trim()
      ? await jsonBody(c, logoutRequestSchema)
      : { refresh: undefined }
    const token = bearerToken(c.req.header('authorization'))
    const claims = token ? await auth.verifyAccess(token) : null
    return c.json(await auth.logout(claims, body.refresh))
  })

  app.post(paths.auth.magicLink, async (c) => {
    const body = await jsonBody(c, magicLinkRedeemSchema)
    return c.json(await auth.people.redeemMagicLink(body, address(c)))
  })

  authed.post(
    paths.auth.changePasswordForced,
    requireAuth(auth, { allowPasswordChange: true }),
    async (c) => {
      const body = await jsonBody(c, forcedChangeRequestSchema)
      return c.json(await auth.changePasswordForced(c.get('auth'), body.new_password))
    },
  )

  authed.post(paths.auth.tokenGet, requireAuth(auth), async (c) =>
    c.json(await auth.tokenGet(c.get('auth'))),
  )

  authed.post(paths.users.invite, requireAuth(auth), permit('users.manage'), async (c) => {
    const body = await jsonBody(c, inviteUserRequestSchema)
    return c.json(await auth.inviteUser(c.get('auth'), body, c.get('requestId')), 201)
  })

  // the people of the organisation (admins): another organisation's user is a 404
  const userId = (c: import('hono').Context<AuthEnv>) => params(c, idParams).id
  authed.get(paths.users.list, requireAuth(auth), permit('users.manage'), async (c) =>
    c.json(await auth.people.list(c.get('auth'), query(c, userListQuerySchema))),
  )
  authed.post(
    at(paths.users.update('{id}')),
    requireAuth(auth),
    permit('users.manage'),
    async (c) => {
      const body = await jsonBody(c, userUpdateSchema)
      return c.json(await auth.people.update(c.get('auth'), userId(c), body, c.get('requestId')))
    },
  )
  authed.post(
    at(paths.users.role('{id}')),
    requireAuth(auth),
    permit('users.manage'),
    async (c) => {
      const body = await jsonBody(c, userRoleSchema)
      return c.json(
        await auth.people.changeRole(c.get('auth'), userId(c), body.role, c.get('requestId')),
      )
    },
  )
  authed.post(
    at(paths.users.approve('{id}')),
    requireAuth(auth),
    permit('users.manage'),
    async (c) => c.json(await auth.people.approve(c.get('auth'), userId(c), c.get('requestId'))),
  )
  authed.post(
    at(paths.users.reject('{id}')),
    requireAuth(auth),
    permit('users.manage'),
    async (c) => c.json(await auth.people.reject(c.get('auth'), userId(c), c.get('requestId'))),
  )
  authed.post(
    at(paths.users.remove('{id}')),
    requireAuth(auth),
    permit('users.manage'),
    async (c) => c.json(await auth.people.remove(c.get('auth'), userId(c), c.get('requestId'))),
  )
  authed.post(
    at(paths.users.sendMagicLink('{id}')),
    requireAuth(auth),
    permit('users.manage'),
    async (c) =>
      c.json(await auth.people.sendMagicLink(c.get('auth'), userId(c), c.get('requestId'))),
  )
  authed.post(
    at(paths.users.generateTemporaryPassword('{id}')),
    requireAuth(auth),
    permit('users.manage'),
    async (c) =>
      c.json(await auth.people.temporaryPassword(c.get('auth'), userId(c), c.get('requestId'))),
  )

  app.route('/', authed)
  return app
}
