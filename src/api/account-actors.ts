import { fromPromise } from 'xstate'
import {
  type AccessClaims,
  confirmEmailResponseSchema,
  forcedChangeResponseSchema,
  googleCallbackResponseSchema,
  loginResponseSchema,
  type RegisterRequest,
  setPasswordResponseSchema,
  ssoExchangeResponseSchema,
  type TokenPair,
  type ValidateResetTokenResponse,
  validateResetTokenResponseSchema,
} from '../../contract/auth.ts'
import { paths } from '../../contract/paths.ts'
import type { RequestFailure } from '../../machines/account.ts'
import { type ApiClient, ApiError, api } from './client.ts'
import { decodeAccessToken, storeTokens } from './tokens.ts'

/**
 * The real side effects of the account flows (registration, forgot and reset password, invite
 * links, the forced change and email confirmation): calls of spec section 7 through the API
 * client. Every actor fails with a `RequestFailure`, the plain shape the machines read their
 * error texts from; the machines decide what to show.
 */

const TEXT_FIELDS = ['error', 'msg', 'detail', 'code', 'message'] as const

export function toRequestFailure(error: unknown): RequestFailure {
  if (!(error instanceof ApiError)) return { status: 0 }
  const failure: RequestFailure = { status: error.status }
  const body = error.body
  if (body && typeof body === 'object') {
    for (const key of TEXT_FIELDS) {
      const value: unknown = Reflect.get(body, key)
      if (typeof value === 'string' && value.trim()) failure[key] = value
    }
    if (Reflect.get(body, 'redirect_to_login') === true) failure.redirect_to_login = true
  }
  return failure
}

/** Runs a call and turns whatever it throws into a `RequestFailure`. */
async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    throw toRequestFailure(error)
  }
}

/**
 * Calls that start by themselves when a page mounts (a link check, an email confirmation) share
 * one request per key while it runs: React's development double mount restarts the page's actor,
 * and a one-time link must not be spent twice.
 */
function sharedWhileRunning<T>(run: (key: string) => Promise<T>) {
  const running = new Map<string, Promise<T>>()
  return (key: string): Promise<T> => {
    const existing = running.get(key)
    if (existing) return existing
    const promise = run(key).finally(() => running.delete(key))
    running.set(key, promise)
    return promise
  }
}

/** Stores a new token pair and reads the claims the session needs. */
function signInWith(tokens: TokenPair): AccessClaims {
  const claims = decodeAccessToken(tokens.access)
  // an access token the browser cannot read would leave a session it cannot schedule
  if (!claims) throw new ApiError(0, undefined, 'The server sent an unreadable access token')
  storeTokens(tokens)
  return claims
}

export function accountActors(client: ApiClient = api) {
  const validate = sharedWhileRunning((key) => {
    const [uid = '', token = ''] = JSON.parse(key) as string[]
    return client.post(
      paths.auth.validatePasswordResetToken,
      { uid, token },
      validateResetTokenResponseSchema,
    )
  })
  const confirm = sharedWhileRunning(async (uuid) => {
    const answer = await client.post(paths.auth.confirmEmail, { uuid }, confirmEmailResponseSchema)
    return signInWith(answer)
  })

  // a one-time sign-in link is spent by its first POST: one request per link while it runs
  const redeem = sharedWhileRunning(async (key) => {
    const [uid = '', token = ''] = JSON.parse(key) as string[]
    const answer = await client.post(paths.auth.magicLink, { uid, token }, loginResponseSchema)
    return {
      claims: signInWith(answer),
      requiresPasswordChange: answer.requires_password_change,
    }
  })

  return {
    exchangeSsoCode: fromPromise<AccessClaims, { code: string }>(({ input }) =>
      call(async () =>
        signInWith(
          await client.post(paths.sso.exchange, { code: input.code }, ssoExchangeResponseSchema),
        ),
      ),
    ),
    completeGoogle: fromPromise<AccessClaims, { code: string; state: string; iss: string | null }>(
      ({ input }) =>
        call(async () => {
          const search = new URLSearchParams({ code: input.code, state: input.state })
          if (input.iss) search.set('iss', input.iss)
          return signInWith(
            await client.get(
              `${paths.auth.googleCallback}?${search}`,
              googleCallbackResponseSchema,
            ),
          )
        }),
    ),
    redeemMagicLink: fromPromise<
      { claims: AccessClaims; requiresPasswordChange: boolean },
      { uid: string; token: string }
    >(({ input }) => call(() => redeem(JSON.stringify([input.uid, input.token])))),
    register: fromPromise<void, Required<RegisterRequest>>(({ input }) =>
      call(() => client.requestVoid(paths.auth.register, { method: 'POST', body: input })),
    ),
    requestPasswordReset: fromPromise<void, { email: string }>(({ input }) =>
      call(() =>
        client.requestVoid(paths.auth.requestPasswordReset, {
          method: 'POST',
          body: { email: input.email },
        }),
      ),
    ),
    validateResetToken: fromPromise<ValidateResetTokenResponse, { uid: string; token: string }>(
      ({ input }) => call(() => validate(JSON.stringify([input.uid, input.token]))),
    ),
    confirmPasswordReset: fromPromise<void, { uid: string; token: string; new_password: string }>(
      ({ input }) =>
        call(() =>
          client.requestVoid(paths.auth.confirmPasswordReset, { method: 'POST', body: input }),
        ),
    ),
    setPassword: fromPromise<
      AccessClaims | null,
      { uid: string; token: string; new_password: string }
    >(({ input }) =>
      call(async () => {
        const answer = await client.post(paths.auth.setPassword, input, setPasswordResponseSchema)
        return answer.access && answer.refresh
          ? signInWith({ access: answer.access, refresh: answer.refresh })
          : null
      }),
    ),
    changePasswordForced: fromPromise<AccessClaims, { new_password: string }>(({ input }) =>
      call(async () => {
        const answer = await client.post(
          paths.auth.changePasswordForced,
          { new_password: input.new_password },
          forcedChangeResponseSchema,
        )
        return signInWith(answer)
      }),
    ),
    confirmEmail: fromPromise<AccessClaims, { uuid: string }>(({ input }) =>
      call(() => confirm(input.uuid)),
    ),
  }
}

export type AccountActors = ReturnType<typeof accountActors>
