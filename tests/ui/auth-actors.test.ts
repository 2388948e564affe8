import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AnyActorLogic, type AnyEventObject, createActor, setup, toPromise } from 'xstate'
import type { ProfileResponse } from '../../contract/auth.ts'
import { paths } from '../../contract/paths.ts'
import { loginActors } from '../../src/api/auth-actors.ts'
import { createApiClient } from '../../src/api/client.ts'
import {
  EXTENSION_REDIRECT_URI_KEY,
  EXTENSION_STATE_KEY,
  storePendingExtension,
} from '../../src/api/extension-handoff.ts'
import { readTokens, storeTokens } from '../../src/api/tokens.ts'
import { sessionActors } from '../../src/app/session-actors.ts'

const b64url = (text: string) =>
  btoa(text).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')
/** An unsigned token with these claims: the browser only reads them. */
const jwt = (claims: object) => `e30.${b64url(JSON.stringify(claims))}.sig`
const nowS = () => Math.floor(Date.now() / 1_000)

const profile: ProfileResponse = {
  user: { id: 7, email: 'ada@example.com', first_name: 'Ada', last_name: 'King', role: 'admin' },
  organization: { id: 3, name: 'Analytical Engines' },
}

let server: ReturnType<typeof serve>
let baseURL = ''
let authorizationUrl = 'https://accounts.google.com/o/oauth2/v2/auth?x=1'
let refreshCalls = 0
/** The hand-off calls the server received: their Authorization header and body. */
const handoffCalls: { authorization: string | undefined; body: unknown }[] = []

beforeAll(async () => {
  const app = new Hono()
  app.get(`/api/v1${paths.auth.googleStart}`, (c) =>
    c.json({ authorization_url: authorizationUrl }),
  )
  app.get(`/api/v1${paths.account.profile}`, (c) => c.json(profile))
  app.post(`/api/v1${paths.extension.handoff}`, async (c) => {
    const body = (await c.req.json()) as { state: string }
    handoffCalls.push({ authorization: c.req.header('authorization'), body })
    return c.json({
      access_token: 'CHILD.ACCESS.TOKEN',
      refresh_token: 'CHILD-R',
      expires_in: 7_200,
      state: body.state,
    })
  })
  app.post(`/api/v1${paths.auth.tokenRefresh}`, (c) => {
    refreshCalls += 1
    return c.json({ error: 'Invalid refresh token' }, 401)
  })
  server = await new Promise((resolve) => {
    const instance = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () =>
      resolve(instance),
    )
  })
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

/** Runs a promise actor to its result. */
const run = <T>(logic: AnyActorLogic, input?: unknown) =>
  toPromise(createActor(logic, { input }).start()) as Promise<T>

/** Invokes a callback actor under a parent that records what it sends back. */
function listen(logic: AnyActorLogic) {
  const received: AnyEventObject[] = []
  const parent = createActor(
    setup({ actors: { child: logic } }).createMachine({
      invoke: { id: 'child', src: 'child' },
      on: { '*': { actions: ({ event }) => received.push(event) } },
    }),
  ).start()
  return {
    received,
    parent,
    send: (event: AnyEventObject) => parent.getSnapshot().children.child?.send(event),
  }
}

function loginWith(navigated: string[]) {
  return loginActors({
    client: createApiClient({ baseURL }),
    navigate: (url) => navigated.push(url),
  })
}

describe('login actors', () => {
  it('storeTokens stores both tokens and gives the claims', async () => {
    const access = jwt({ exp: nowS() + 7_200, user: { email: 'ada@example.com' } })
    const stored = await run<{ claims: { exp: number }; extension: unknown }>(
      loginWith([]).storeTokens,
      { access, refresh: 'R1' },
    )
    expect(readTokens()).toEqual({ access, refresh: 'R1' })
    expect(stored.claims.exp).toBeGreaterThan(nowS())
    expect(stored.extension).toBeNull()
  })

  it('storeTokens reads a pending extension hand-off', async () => {
    storePendingExtension({ redirectUri: 'chrome-extension://abc/', state: 's1' })
    const stored = await run<{ extension: unknown }>(loginWith([]).storeTokens, {
      access: jwt({ exp: nowS() + 7_200 }),
      refresh: 'R1',
    })
    expect(stored.extension).toEqual({ redirectUri: 'chrome-extension://abc/', state: 's1' })
  })

  it('storeTokens ignores a hand-off to an address that is not an extension', async () => {
    sessionStorage.setItem(EXTENSION_REDIRECT_URI_KEY, 'https://evil.example/')
    sessionStorage.setItem(EXTENSION_STATE_KEY, 's1')
    const stored = await run<{ extension: unknown }>(loginWith([]).storeTokens, {
      access: jwt({ exp: nowS() + 7_200 }),
      refresh: 'R1',
    })
    expect(stored.extension).toBeNull()
  })

  it('storeTokens refuses a token it cannot read, and stores nothing', async () => {
    await expect(
      run(loginWith([]).storeTokens, { access: 'not-a-token', refresh: 'R1' }),
    ).rejects.toThrow()
    expect(readTokens()).toEqual({ access: null, refresh: null })
  })

  it('the hand-off gives the extension a child session of its own (the hand-off call’s tokens), never the web app’s', async () => {
    const navigated: string[] = []
    handoffCalls.length = 0
    storeTokens({ access: 'WEB.ACCESS.TOKEN', refresh: 'WEB-R' })
    storePendingExtension({ redirectUri: 'chrome-extension://abc/', state: 's 1' })
    await run(loginWith(navigated).handOffToExtension, {
      extension: { redirectUri: 'chrome-extension://abc/', state: 's 1' },
      tokens: { access: 'WEB.ACCESS.TOKEN', refresh: 'WEB-R' },
    })
    expect(handoffCalls).toEqual([
      {
        authorization: 'Bearer WEB.ACCESS.TOKEN',
        body: { redirect_uri: 'chrome-extension://abc/', state: 's 1' },
      },
    ])
    expect(navigated).toEqual([
      'chrome-extension://abc/#access_token=CHILD.ACCESS.TOKEN&refresh_token=CHILD-R&expires_in=7200&state=s+1',
    ])
    expect(navigated[0]).not.toContain('WEB')
    // the web app keeps its own session
    expect(readTokens()).toEqual({ access: 'WEB.ACCESS.TOKEN', refresh: 'WEB-R' })
    expect(sessionStorage.getItem(EXTENSION_REDIRECT_URI_KEY)).toBeNull()
    expect(sessionStorage.getItem(EXTENSION_STATE_KEY)).toBeNull()
  })

  it('the hand-off refuses an address that is not an extension', async () => {
    const navigated: string[] = []
    handoffCalls.length = 0
    await expect(
      run(loginWith(navigated).handOffToExtension, {
        extension: { redirectUri: 'https://evil.example/', state: 's1' },
        tokens: { access: 'A', refresh: 'R' },
      }),
    ).rejects.toThrow()
    expect(navigated).toEqual([])
    expect(handoffCalls).toHaveLength(0)
  })

  it('SSO goes to the login address of the provider with the email', async () => {
    const navigated: string[] = []
    await run(loginWith(navigated).startSso, { provider: 'microsoft', email: 'ada@example.com' })
    expect(navigated).toEqual(['/api/v1/admin/sso/login/microsoft/?email=ada%40example.com'])
    await expect(
      run(loginWith(navigated).startSso, { provider: '', email: 'ada@example.com' }),
    ).rejects.toThrow()
  })

  it('Google: asks for the authorization address and goes there; never to a script address', async () => {
    const navigated: string[] = []
    await run(loginWith(navigated).startGoogle)
    expect(navigated).toEqual([authorizationUrl])
    authorizationUrl = 'javascript:alert(1)'
    await expect(run(loginWith(navigated).startGoogle)).rejects.toThrow()
    expect(navigated).toHaveLength(1)
    authorizationUrl = 'https://accounts.google.com/o/oauth2/v2/auth?x=1'
  })
})

describe('session actors', () => {
  const actors = () => sessionActors(createApiClient({ baseURL }))

  it('loadProfile reads GET profile/', async () => {
    expect(await run(actors().loadProfile)).toEqual(profile)
  })

  it('refreshSession uses a token another tab has just refreshed, without a call', async () => {
    refreshCalls = 0
    storeTokens({ access: jwt({ exp: nowS() + 7_200 }), refresh: 'R2' })
    const claims = await run<{ exp: number }>(actors().refreshSession)
    expect(claims.exp).toBeGreaterThan(nowS() + 3_600)
    expect(refreshCalls).toBe(0)
  })

  it('refreshSession clears both tokens when the refresh fails', async () => {
    refreshCalls = 0
    storeTokens({ access: jwt({ exp: nowS() + 100 }), refresh: 'R1' })
    await expect(run(actors().refreshSession)).rejects.toThrow()
    expect(refreshCalls).toBe(1)
    expect(readTokens()).toEqual({ access: null, refresh: null })
  })

  it("tabSync: another tab's login and logout", () => {
    const { received, parent } = listen(actors().tabSync)
    const access = jwt({ exp: nowS() + 7_200, user: { email: 'ada@example.com' } })
    storeTokens({ access, refresh: 'R1' })
    window.dispatchEvent(new StorageEvent('storage', { key: 'access_token', newValue: access }))
    window.dispatchEvent(new StorageEvent('storage', { key: 'sidebar', newValue: 'x' }))
    localStorage.clear()
    window.dispatchEvent(new StorageEvent('storage', { key: null }))
    expect(received.map((event) => event.type)).toEqual(['tab.login', 'tab.logout'])
    expect(received[0]).toMatchObject({ claims: { user: { email: 'ada@example.com' } } })
    parent.stop()
    window.dispatchEvent(new StorageEvent('storage', { key: 'access_token' }))
    expect(received).toHaveLength(2)
  })

  it('clock: tells the time when it starts and when asked', () => {
    const { received, send } = listen(actors().clock)
    send({ type: 'clock.read' })
    expect(received.map((event) => event.type)).toEqual(['clock.now', 'clock.now'])
    expect(Math.abs((received[0]?.now as number) - Date.now())).toBeLessThan(1_000)
  })
})
