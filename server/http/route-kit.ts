import { type Context, type Handler, Hono, type Next } from 'hono'
import { z } from 'zod'
import { type AuthEnv, type Authenticator, requireAuth } from '../auth/middleware.ts'

/**
 * What every HTTP area builds its routes with (issue 43). An area router puts the
 * authentication guard in front of each of its routes, once, on the route itself: never on a
 * path prefix, which other areas mounted beside it share (their guards then ran too, and a route
 * a prefix list forgot answered 500 instead of 401). Public routes say so with `open`.
 */

/** A route's handler or middleware, with the signed-in caller in its context. */
export type RouteHandler = (
  c: Context<AuthEnv>,
  next: Next,
  // biome-ignore lint/suspicious/noConfusingVoidType: a Hono middleware resolves to void
) => Response | Promise<Response | void>

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'

export interface AreaRouter {
  /** The area's routes, mounted by the app at '/'. */
  app: Hono<AuthEnv>
  get(path: string, ...handlers: RouteHandler[]): void
  post(path: string, ...handlers: RouteHandler[]): void
  patch(path: string, ...handlers: RouteHandler[]): void
  put(path: string, ...handlers: RouteHandler[]): void
  delete(path: string, ...handlers: RouteHandler[]): void
  /** Routes anyone may call (no guard). */
  open: {
    get(path: string, ...handlers: RouteHandler[]): void
    post(path: string, ...handlers: RouteHandler[]): void
  }
  /**
   * The guard itself, for the rare open route that asks for a session only in some cases (the
   * payment webhook's landing call); it still runs at most once per request.
   */
  guard: RouteHandler
}

export function areaRouter(options: {
  auth: Authenticator
  /** The guard lets an account that must change its password through (AS7): its own calls. */
  allowPasswordChange?: boolean
}): AreaRouter {
  const app = new Hono<AuthEnv>()
  const guard = requireAuth(options.auth, {
    allowPasswordChange: options.allowPasswordChange ?? false,
  }) as RouteHandler
  const add =
    (method: Method, guarded: boolean) =>
    (path: string, ...handlers: RouteHandler[]) => {
      const chain = (guarded ? [guard, ...handlers] : handlers) as unknown as Handler<AuthEnv>[]
      app.on(method, path, ...(chain as [Handler<AuthEnv>]))
    }
  return {
    app,
    get: add('GET', true),
    post: add('POST', true),
    patch: add('PATCH', true),
    put: add('PUT', true),
    delete: add('DELETE', true),
    open: { get: add('GET', false), post: add('POST', false) },
    guard,
  }
}

/** The `{id}` of a path, a positive integer. */
export const idParams = z.object({ id: z.coerce.number().int().positive() })

/**
 * A contract path with `{name}` placeholders as a Hono pattern: ids (`{id}`, `{qid}`, …) are
 * positive integers, other names (`{slug}`) any segment.
 */
export const routePath = (path: string) =>
  decodeURIComponent(path).replace(/\{(\w+)\}/g, (_, name: string) =>
    /id$/.test(name) ? `:${name}{[0-9]+}` : `:${name}`,
  )

/** The caller's organisation and user, behind the guard. */
export const orgOf = (c: Context<AuthEnv>) => c.get('auth').org.id
export const userOf = (c: Context<AuthEnv>) => c.get('auth').user.id
