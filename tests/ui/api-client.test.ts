import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { paths } from '../../contract/paths.ts'
import { ApiError, createApiClient } from '../../src/api/client.ts'
import { type AuthEvent, authEvents } from '../../src/api/events.ts'
import { readTokens, storeTokens } from '../../src/api/tokens.ts'

/**
 * The client's spec section 8 rule, against a real HTTP server standing in for the auth module
 * (which a later release builds): access token A2 is the only valid one; refresh R1 trades for
 * A2 + R2.
 */

let refreshCalls = 0
let server: ReturnType<typeof serve>
let client: ReturnType<typeof createApiClient>
const events: AuthEvent[] = []

const things = z.object({ items: z.array(z.string()) })

beforeAll(async () => {
  const app = new Hono()
  app.get('/api/v1/things/', (c) =>
    c.req.header('authorization') === 'Bearer A2'
      ? c.json({ items: ['a', 'b'] })
      : c.json({ error: 'Token expired' }, 401),
  )
  app.get('/api/v1/always-401/', (c) => c.json({ error: 'nope' }, 401))
  app.get('/api/v1/wrong-shape/', (c) => c.json({ items: 'not a list' }))
  app.get('/api/v1/bad-request/', (c) => c.json({ msg: 'Name is required' }, 400))
  app.post(`/api/v1${paths.auth.tokenRefresh}`, async (c) => {
    refreshCalls += 1
    const body = (await c.req.json()) as { refresh?: string }
    await new Promise((resolve) => setTimeout(resolve, 20))
    return body.refresh === 'R1'
      ? c.json({ access: 'A2', refresh: 'R2' })
      : c.json({ error: 'Invalid refresh token' }, 401)
  })
  app.post(`/api/v1${paths.auth.login}`, (c) => c.json({ error: 'Wrong credentials' }, 401))
  server = await new Promise((resolve) => {
    const instance = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () =>
      resolve(instance),
    )
  })
  const { port } = server.address() as AddressInfo
  client = createApiClient({ baseURL: `http://127.0.0.1:${port}/api/v1` })
  authEvents.on((event) => events.push(event))
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))
beforeEach(() => {
  refreshCalls = 0
  events.length = 0
  localStorage.clear()
})

describe('API client', () => {
  it('on a 401 refreshes once with the stored refresh token and repeats the call', async () => {
    storeTokens({ access: 'A1-expired', refresh: 'R1' })
    await expect(client.get('/things/', things)).resolves.toEqual({ items: ['a', 'b'] })
    expect(refreshCalls).toBe(1)
    expect(readTokens()).toEqual({ access: 'A2', refresh: 'R2' })
    expect(events).toEqual([])
  })

  it('shares one refresh between concurrent 401s', async () => {
    storeTokens({ access: 'A1-expired', refresh: 'R1' })
    const results = await Promise.all([1, 2, 3].map(() => client.get('/things/', things)))
    expect(results).toHaveLength(3)
    expect(refreshCalls).toBe(1)
  })

  it('never refreshes on a 401 from login', async () => {
    storeTokens({ access: 'A1', refresh: 'R1' })
    const error = await client
      .post(paths.auth.login, { email: 'a@b.co', password: 'x' }, z.unknown())
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).status).toBe(401)
    expect((error as ApiError).text('An error occurred')).toBe('Wrong credentials')
    expect(refreshCalls).toBe(0)
    expect(readTokens()).toEqual({ access: 'A1', refresh: 'R1' })
  })

  it('with no refresh token clears both tokens and raises auth-error', async () => {
    storeTokens({ access: 'A1-expired' })
    await expect(client.get('/things/', things)).rejects.toMatchObject({ status: 401 })
    expect(refreshCalls).toBe(0)
    expect(readTokens()).toEqual({ access: null, refresh: null })
    expect(events).toEqual([{ type: 'auth-error', status: 401, path: '/things/' }])
  })

  it('when the refresh fails clears both tokens and raises auth-error', async () => {
    storeTokens({ access: 'A1-expired', refresh: 'R-revoked' })
    await expect(client.get('/things/', things)).rejects.toMatchObject({ status: 401 })
    expect(refreshCalls).toBe(1)
    expect(readTokens()).toEqual({ access: null, refresh: null })
    expect(events).toHaveLength(1)
  })

  it('retries only once: a second 401 ends the session', async () => {
    storeTokens({ access: 'A1-expired', refresh: 'R1' })
    await expect(client.get('/always-401/', z.unknown())).rejects.toMatchObject({ status: 401 })
    expect(refreshCalls).toBe(1)
    expect(readTokens()).toEqual({ access: null, refresh: null })
    expect(events).toHaveLength(1)
  })

  it('parses answers with the contract schema and refuses a wrong shape', async () => {
    storeTokens({ access: 'A2', refresh: 'R2' })
    await expect(client.get('/wrong-shape/', things)).rejects.toThrow(
      'Unexpected response from /wrong-shape/',
    )
  })

  it('reads error texts from the body: error, msg, message, detail, else the fallback', async () => {
    const error = (await client
      .get('/bad-request/', z.unknown())
      .catch((e: unknown) => e)) as ApiError
    expect(error.status).toBe(400)
    expect(error.text('An error occurred')).toBe('Name is required')
    expect(new ApiError(500, {}, 'x').text('An error occurred')).toBe('An error occurred')
  })
})
