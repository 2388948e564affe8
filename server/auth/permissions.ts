import type { MiddlewareHandler } from 'hono'
import { AUTH_TEXTS } from '../../contract/auth-texts.ts'
import { ERROR_CODES } from '../../contract/errors.ts'
import { type Capability, can } from '../../contract/roles.ts'
import type { Database } from '../db/index.ts'
import { auditEvents } from '../db/schema.ts'
import { apiError } from '../http/errors.ts'
import type { AuthEnv } from './middleware.ts'

/**
 * Roles checked on the server for every call: each route names the capability it needs
 * (contract/roles.ts), after requireAuth. A role without it gets 403, and the denial is audited
 * with tenant, actor and target (TI7).
 */
export type Permit = (capability: Capability) => MiddlewareHandler<AuthEnv>

export function permissions(database: Database): Permit {
  return (capability) => async (c, next) => {
    const auth = c.get('auth')
    if (!can(auth.role, capability)) {
      await database.db.insert(auditEvents).values({
        orgId: auth.org.id,
        actorId: auth.user.id,
        action: 'authorization.denied',
        target: `${c.req.method} ${c.req.path}`,
        requestId: c.get('requestId'),
        detail: { role: auth.role, needs: capability },
      })
      throw forbidden()
    }
    await next()
  }
}

export const forbidden = (message: string = AUTH_TEXTS.permissionDenied) =>
  apiError(403, message, { msg: message, code: ERROR_CODES.forbidden })
