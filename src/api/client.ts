import { FetchError, type FetchOptions, ofetch } from 'ofetch'
import { type $ZodType, type output, safeParse } from 'zod/v4/core'
import {
  API_PREFIX,
  NO_REFRESH_ON_401,
  accountPaths as paths,
} from '../../contract/account-paths.ts'
import { tokenRefreshResponseSchema } from '../../contract/auth.ts'
import { errorSchema, errorText, LICENSE_LIMIT } from '../../contract/errors.ts'
import { authEvents, limitEvents } from './events.ts'
import { withRefreshLock } from './refresh-lock.ts'
import { clearTokens, readTokens, storeTokens } from './tokens.ts'

/**
 * The one HTTP client of the SPA. Base /api/v1, the bearer access token from localStorage, and the
 * rule of spec section 8: on a 401 (except login, register, token refresh and social login) one
 * refresh with the stored refresh token and one retry; with no refresh token or a failed refresh,
 * both tokens are cleared and an auth-error event is raised.
 */

export class ApiError extends Error {
  override name = 'ApiError'
  readonly status: number
  readonly body: unknown
  constructor(status: number, body: unknown, message: string) {
    super(message)
    this.status = status
    this.body = body
  }
  /** The text to show: the body's error, msg, message or detail, else the fallback. */
  text(fallback: string) {
    return errorText(this.body, fallback)
  }
  get code(): string | undefined {
    const parsed = errorSchema.safeParse(this.body)
    return parsed.success ? parsed.data.code : undefined
  }
}

/** Tells the layout that a call was refused at a license limit (it opens the pricing dialog). */
export function reportLimit(error: ApiError) {
  if (error.code !== LICENSE_LIMIT) return error
  const detail = (error.body as { detail?: { limit?: unknown } } | undefined)?.detail
  limitEvents.emit({
    type: 'limit-reached',
    message: error.message,
    limit: typeof detail?.limit === 'string' ? detail.limit : null,
  })
  return error
}

export type RequestOptions = Omit<FetchOptions<'json'>, 'baseURL'>

const skipsRefresh = (path: string) =>
  (NO_REFRESH_ON_401 as readonly string[]).includes(path.split('?')[0] ?? path)

function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error
  if (error instanceof FetchError) {
    const status = error.statusCode ?? 0
    const body: unknown = error.data
    return new ApiError(
      status,
      body,
      errorText(body, status ? `Request failed (${status})` : 'Network error'),
    )
  }
  return new ApiError(0, undefined, error instanceof Error ? error.message : 'Network error')
}

export interface ApiClientOptions {
  /** `/api/v1` in the app; tests point it at a server of their own. */
  baseURL: string
  /** Sends no session and never refreshes one: calls any visitor makes (the trust centre). */
  anonymous?: boolean
}

export function createApiClient(options: ApiClientOptions) {
  const raw = ofetch.create({
    baseURL: options.baseURL,
    retry: 0,
    onRequest({ options: request }) {
      const { access } = options.anonymous ? { access: null } : readTokens()
      if (access && !request.headers.has('Authorization')) {
        request.headers.set('Authorization', `Bearer ${access}`)
      }
    },
  })

  let refreshing: Promise<boolean> | null = null

  /**
   * One refresh at a time: concurrent 401s share it. Resolves true when new tokens are stored.
   */
  function refreshTokens(): Promise<boolean> {
    const before = readTokens().refresh
    refreshing ??= withRefreshLock(async () => {
      const { refresh } = readTokens()
      if (!refresh) return false
      // another tab rotated the token while this one waited for the lock: use the new pair
      if (before && refresh !== before) return true
      try {
        const body = await raw(paths.auth.tokenRefresh, {
          method: 'POST',
          body: { refresh },
        })
        const parsed = tokenRefreshResponseSchema.parse(body)
        storeTokens({ access: parsed.access, refresh: parsed.refresh ?? refresh })
        return true
      } catch {
        return false
      }
    }).finally(() => {
      refreshing = null
    })
    return refreshing
  }

  const sessionLost = (path: string) => {
    clearTokens()
    authEvents.emit({ type: 'auth-error', status: 401, path })
  }

  async function send(path: string, requestOptions: RequestOptions): Promise<unknown> {
    try {
      return await raw(path, requestOptions)
    } catch (error) {
      const failure = toApiError(error)
      if (failure.status !== 401 || skipsRefresh(path) || options.anonymous)
        throw reportLimit(failure)
      if (!(await refreshTokens())) {
        sessionLost(path)
        throw failure
      }
      try {
        return await raw(path, requestOptions)
      } catch (retryError) {
        const retryFailure = toApiError(retryError)
        if (retryFailure.status === 401) sessionLost(path)
        throw retryFailure
      }
    }
  }

  /** Calls the API and parses the answer with a contract schema. */
  async function request<T extends $ZodType>(
    path: string,
    schema: T,
    requestOptions: RequestOptions = {},
  ): Promise<output<T>> {
    const body = await send(path, requestOptions)
    const parsed = safeParse(schema, body)
    if (!parsed.success) throw new ApiError(0, body, `Unexpected response from ${path}`)
    return parsed.data
  }

  return {
    request,
    refreshTokens,
    /** For calls whose answer's shape does not matter. */
    requestVoid: async (path: string, requestOptions: RequestOptions = {}) => {
      await send(path, requestOptions)
    },
    get: <T extends $ZodType>(path: string, schema: T, requestOptions: RequestOptions = {}) =>
      request(path, schema, { ...requestOptions, method: 'GET' }),
    post: <T extends $ZodType>(
      path: string,
      body: unknown,
      schema: T,
      requestOptions: RequestOptions = {},
    ) =>
      request(path, schema, {
        ...requestOptions,
        method: 'POST',
        body: body as FetchOptions['body'],
      }),
    delete: <T extends $ZodType>(path: string, schema: T, requestOptions: RequestOptions = {}) =>
      request(path, schema, { ...requestOptions, method: 'DELETE' }),
  }
}

export type ApiClient = ReturnType<typeof createApiClient>

/** The app's client. */
export const api: ApiClient = createApiClient({ baseURL: API_PREFIX })
/** The client of a visitor's calls: no staff session rides along (the trust centre, issue 40). */
export const publicApi: ApiClient = createApiClient({ baseURL: API_PREFIX, anonymous: true })
