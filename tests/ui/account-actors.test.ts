import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type AnyActorLogic, createActor, type InputFrom, toPromise } from 'xstate'
import { paths } from '../../contract/paths.ts'
import { accountActors, toRequestFailure } from '../../src/api/account-actors.ts'
import { ApiError, createApiClient } from '../../src/api/client.ts'
import { readTokens } from '../../src/api/tokens.ts'
import { REGISTRATION } from '../support/account-tests.ts'

/** The real account actors against a stand-in HTTP server: payloads, failures, tokens. */

const segment = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
const jwt = (claims: object) => `${segment({ alg: 'HS256' })}.${segment(claims)}.signature`
const claims = { exp: 2_000_000_000, user: { email: 'ada@example.com' } }
const access = jwt(claims)

let server: ReturnType<typeof serve>
let actors: ReturnType<typeof accountActors>
let unreachable: ReturnType<typeof accountActors>
const received: { path: string; body: unknown }[] = []
let confirmCalls = 0

beforeAll(async () => {
  const app = new Hono()
  const api = (path: string) => `/api/v1${path}`
  app.use('*', async (c, next) => {
    received.push({ path: c.req.path, body: await c.req.json().catch(() => null) })
    await next()
  })
  app.post(api(paths.auth.register), async (c) => {
    const body = (await c.req.json()) as { email: string }
    return body.email === 'taken@example.com'
      ? c.json(
          { error: 'Conflict', msg: 'This email is already registered', code: 'conflict' },
          400,
        )
      : c.json({ status: 'success' })
  })
  app.post(api(paths.auth.confirmEmail), async (c) => {
    confirmCalls += 1
    await new Promise((resolve) => setTimeout(resolve, 20))
    return c.json({ access, refresh: 'R1', user: { email: 'ada@example.com' } })
  })
  app.post(api(paths.auth.changePasswordForced), async (c) => {
    const body = (await c.req.json()) as { new_password: string }
    return body.new_password === 'unreadable'
      ? c.json({ status: 'success', access: 'not-a-jwt', refresh: 'R9' })
      : c.json({ status: 'success', access, refresh: 'R2' })
  })
  app.post(api(paths.auth.validatePasswordResetToken), (c) =>
    c.json({ token_valid: false, user_email: 'ada@example.com', expired: true }),
  )
  app.post(api(paths.auth.setPassword), (c) => c.json({ status: 'pending' }))
  app.post(api(paths.auth.confirmPasswordReset), (c) =>
    c.json(
      { error: 'Invalid or expired token', detail: { field: 'token' }, code: 'invalid_token' },
      400,
    ),
  )
  server = await new Promise((resolve) => {
    const instance = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () =>
      resolve(instance),
    )
  })
  const { port } = server.address() as AddressInfo
  actors = accountActors(createApiClient({ baseURL: `http://127.0.0.1:${port}/api/v1` }))
  // port 9 (discard) on loopback: nothing listens, the connection is refused
  unreachable = accountActors(createApiClient({ baseURL: 'http://127.0.0.1:9/api/v1' }))
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))
beforeEach(() => {
  received.length = 0
  confirmCalls = 0
  localStorage.clear()
})

const run = <TLogic extends AnyActorLogic>(logic: TLogic, input: InputFrom<TLogic>) =>
  toPromise(createActor(logic, { input }).start())

describe('account actors', () => {
  it('register posts the payload as it is', async () => {
    await run(actors.register, REGISTRATION)
    expect(received).toEqual([{ path: `/api/v1${paths.auth.register}`, body: REGISTRATION }])
  })

  it('a failure carries the status and the text fields of the body', async () => {
    await expect(
      run(actors.register, {
        email: 'taken@example.com',
        password: 'secret-123',
        organization: 'X',
        firstName: 'A',
        lastName: 'B',
        marketing_consent: false,
      }),
    ).rejects.toEqual({
      status: 400,
      error: 'Conflict',
      msg: 'This email is already registered',
      code: 'conflict',
    })
    // a non-text detail is left out
    await expect(
      run(actors.confirmPasswordReset, { uid: 'MQ', token: 't', new_password: 'secret-123' }),
    ).rejects.toEqual({ status: 400, error: 'Invalid or expired token', code: 'invalid_token' })
  })

  it('a server that cannot be reached fails with status 0', async () => {
    await expect(
      run(unreachable.requestPasswordReset, { email: 'ada@example.com' }),
    ).rejects.toEqual({ status: 0 })
  })

  it('an answer of the wrong shape fails with status 0', async () => {
    await expect(
      run(actors.setPassword, { uid: 'MQ', token: 't', new_password: 'secret-123' }),
    ).rejects.toMatchObject({ status: 0 })
  })

  it('the reset link check returns the parsed answer', async () => {
    await expect(run(actors.validateResetToken, { uid: 'MQ', token: 't' })).resolves.toEqual({
      token_valid: false,
      user_email: 'ada@example.com',
      expired: true,
    })
  })

  it('email confirmation stores the token pair and returns the claims; one request per uuid at a time', async () => {
    const [first, second] = await Promise.all([
      run(actors.confirmEmail, { uuid: 'u-1' }),
      run(actors.confirmEmail, { uuid: 'u-1' }),
    ])
    expect(first).toEqual(claims)
    expect(second).toEqual(claims)
    expect(confirmCalls).toBe(1)
    expect(readTokens()).toEqual({ access, refresh: 'R1' })
  })

  it('the forced change stores the new pair and returns the claims', async () => {
    await expect(run(actors.changePasswordForced, { new_password: 'changed-1' })).resolves.toEqual(
      claims,
    )
    expect(readTokens()).toEqual({ access, refresh: 'R2' })
  })

  it('an unreadable access token is a failure and nothing is stored', async () => {
    await expect(
      run(actors.changePasswordForced, { new_password: 'unreadable' }),
    ).rejects.toMatchObject({ status: 0 })
    expect(readTokens()).toEqual({ access: null, refresh: null })
  })

  it('toRequestFailure keeps only text fields and treats anything else as unreachable', () => {
    expect(toRequestFailure(new ApiError(429, { error: 'Slow down', detail: 'x' }, 'x'))).toEqual({
      status: 429,
      error: 'Slow down',
      detail: 'x',
    })
    expect(toRequestFailure(new TypeError('fetch failed'))).toEqual({ status: 0 })
  })
})
