import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fromPromise } from 'xstate'
import * as z from 'zod/mini'
import type { AccessClaims, TokenPair } from '../../contract/auth.ts'
import { AUTH_TEXTS, SSO_MESSAGES } from '../../contract/auth-texts.ts'
import { paths } from '../../contract/paths.ts'
import type {
  DiscoverInput,
  HandOffInput,
  LoginInput,
  LoginResponse,
  SignInProviders,
  SsoDiscoverResponse,
  SsoStartInput,
  StoredLogin,
} from '../../machines/login/index.ts'
import { loginMachine } from '../../machines/login/index.ts'
import type { StoredSession } from '../../machines/session/index.ts'
import { loginActors } from '../../src/api/auth-actors.ts'
import { createApiClient } from '../../src/api/client.ts'
import LoginPage, { type LoginLogic } from '../../src/pages/auth/login-page.tsx'
import { renderAuthPage } from '../support/auth-page.tsx'

const EMAIL = 'ada@example.com'
const claims: AccessClaims = { exp: 2_000_000_000, user: { email: EMAIL } }
const tokens: LoginResponse = { access: 'A1', refresh: 'R1', requires_password_change: false }

const never = <T,>() => new Promise<T>(() => {})

interface Fakes {
  discover?: (input: DiscoverInput) => Promise<SsoDiscoverResponse>
  login?: (input: LoginInput) => Promise<LoginResponse>
  store?: (tokens: TokenPair) => Promise<StoredLogin>
  google?: () => Promise<void>
  sso?: (input: SsoStartInput) => Promise<void>
  providers?: () => Promise<SignInProviders>
}

/** The login machine with fake actors (unset ones never settle). */
const fakeLogic = (fakes: Fakes = {}): LoginLogic =>
  loginMachine.provide({
    actors: {
      discoverSso: fromPromise<SsoDiscoverResponse, DiscoverInput>(({ input }) =>
        (fakes.discover ?? never)(input),
      ),
      login: fromPromise<LoginResponse, LoginInput>(({ input }) => (fakes.login ?? never)(input)),
      storeTokens: fromPromise<StoredLogin, TokenPair>(({ input }) =>
        (fakes.store ?? never)(input),
      ),
      startGoogle: fromPromise<void>(() => (fakes.google ?? never)()),
      startSso: fromPromise<void, SsoStartInput>(({ input }) => (fakes.sso ?? never)(input)),
      handOffToExtension: fromPromise<void, HandOffInput>(() => never()),
      loadProviders: fromPromise<SignInProviders>(() => (fakes.providers ?? never)()),
    },
  })

const STUBS = {
  '/': 'Home screen',
  '/force-password-change': 'Change Your Password',
  '/register': 'Create a Free Account',
  '/forgot-password': 'Forgot your password?',
} as const

/** /login under a memory router with stub destinations, and a session we can look into. */
const renderLogin = (
  logic: LoginLogic,
  options: { url?: string; stored?: () => Promise<StoredSession> } = {},
) =>
  renderAuthPage('/login', options.url ?? '/login', () => <LoginPage logic={logic} />, {
    destinations: STUBS,
    validateSearch: z.object({ message: z.optional(z.string()) }),
    ...(options.stored && { stored: options.stored }),
  })

const emailField = () => screen.getByLabelText('Work Email') as HTMLInputElement
/** 'Continue' (while its spinner shows, the spinner's label 'Loading' joins the name). */
const continueButton = () =>
  screen.getByRole('button', { name: /^(Loading)?Continue$/ }) as HTMLButtonElement
const typeEmail = (value: string) => fireEvent.change(emailField(), { target: { value } })

async function toPasswordStep(fakes: Fakes = {}) {
  const view = renderLogin(fakeLogic({ discover: async () => ({ sso_enabled: false }), ...fakes }))
  await screen.findByLabelText('Work Email')
  typeEmail(EMAIL)
  fireEvent.click(continueButton())
  await screen.findByRole('heading', { name: 'Enter password' })
  return view
}

const typePasswordAndSignIn = (value = 'correct horse') => {
  fireEvent.change(screen.getByLabelText('Password'), { target: { value } })
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }))
}

describe('LoginPage: email step', () => {
  it('shows the email step: Work Email, Continue, Google, register, terms and privacy', async () => {
    renderLogin(fakeLogic())
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy()
    expect(emailField().inputMode).toBe('email')
    expect(emailField().autocomplete).toBe('username')
    expect(screen.getByText('Or continue with')).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Google' })).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Create one' }).getAttribute('href')).toBe('/register')
    expect(screen.getByText(/Don't have an account\?/)).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Terms of Service' }).getAttribute('href')).toBe(
      '/terms',
    )
    expect(screen.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe(
      '/privacy',
    )
  })

  it('disables Continue while the email is blank', async () => {
    renderLogin(fakeLogic())
    await screen.findByLabelText('Work Email')
    expect(continueButton().disabled).toBe(true)
    typeEmail('a')
    expect(continueButton().disabled).toBe(false)
    typeEmail('')
    expect(continueButton().disabled).toBe(true)
  })

  it('shows the validation texts of spec section 5', async () => {
    renderLogin(fakeLogic())
    await screen.findByLabelText('Work Email')
    typeEmail('   ')
    fireEvent.click(continueButton())
    expect(screen.getByRole('alert').textContent).toBe('Please enter your email address')
    typeEmail('ada.example.com')
    expect(screen.queryByRole('alert')).toBeNull()
    fireEvent.click(continueButton())
    expect(screen.getByRole('alert').textContent).toBe('Please enter a valid email address')
  })

  it('disables Continue while discovery runs', async () => {
    renderLogin(fakeLogic())
    await screen.findByLabelText('Work Email')
    typeEmail(EMAIL)
    fireEvent.click(continueButton())
    expect(continueButton().disabled).toBe(true)
    expect(continueButton().getAttribute('aria-busy')).toBe('true')
  })

  it('shows the SSO text the message parameter names, then takes it out of the address', async () => {
    const { router } = renderLogin(fakeLogic(), { url: '/login?message=invalid_state' })
    expect(await screen.findByText(SSO_MESSAGES.invalid_state as string)).toBeTruthy()
    await waitFor(() => expect(router.state.location.search).toEqual({}))
    expect(router.state.location.pathname).toBe('/login')
    expect(screen.getByText(SSO_MESSAGES.invalid_state as string)).toBeTruthy()
  })

  it('says the session expired after a session-expired logout', async () => {
    renderLogin(fakeLogic(), { stored: async () => ({ kind: 'expired' }) })
    expect(await screen.findByText(AUTH_TEXTS.sessionExpired)).toBeTruthy()
  })

  it("shows 'Failed to start Google authentication' when Google cannot start", async () => {
    renderLogin(fakeLogic({ google: () => Promise.reject(new Error('502')) }))
    fireEvent.click(await screen.findByRole('button', { name: 'Google' }))
    expect(await screen.findByText(AUTH_TEXTS.googleStartFailed)).toBeTruthy()
  })

  it('offers Google only where the server has it configured (issue 39)', async () => {
    renderLogin(fakeLogic({ providers: async () => ({ google: false }) }))
    await screen.findByLabelText('Work Email')
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Google' })).toBeNull())
    expect(screen.queryByText('Or continue with')).toBeNull()
  })
})

describe('LoginPage: sso step', () => {
  it("shows the email and 'Continue to {organization}', then 'Redirecting...'", async () => {
    const started: SsoStartInput[] = []
    renderLogin(
      fakeLogic({
        discover: async () => ({
          sso_enabled: true,
          result: { provider: 'google', organization: 'Acme' },
        }),
        sso: (input) => {
          started.push(input)
          return never()
        },
      }),
    )
    await screen.findByLabelText('Work Email')
    typeEmail(EMAIL)
    fireEvent.click(continueButton())
    const go = await screen.findByRole('button', { name: 'Continue to Acme' })
    expect(screen.getByText(EMAIL)).toBeTruthy()
    fireEvent.click(go)
    expect(await screen.findByText('Redirecting...')).toBeTruthy()
    expect(started).toEqual([{ provider: 'google', email: EMAIL }])
  })

  it("'Back to email' returns with the email kept", async () => {
    renderLogin(fakeLogic({ discover: async () => ({ sso_enabled: true, result: {} }) }))
    await screen.findByLabelText('Work Email')
    typeEmail(EMAIL)
    fireEvent.click(continueButton())
    fireEvent.click(await screen.findByRole('button', { name: 'Back to email' }))
    expect((await screen.findByLabelText('Work Email')) as HTMLInputElement).toHaveProperty(
      'value',
      EMAIL,
    )
  })
})

describe('LoginPage: password step', () => {
  it("has 'Enter password', show/hide, 'Forgot your password?', 'Sign in' and 'Back to email'", async () => {
    await toPasswordStep()
    const password = screen.getByLabelText('Password') as HTMLInputElement
    expect(password.type).toBe('password')
    fireEvent.click(screen.getByRole('button', { name: 'Show password' }))
    expect(password.type).toBe('text')
    fireEvent.click(screen.getByRole('button', { name: 'Hide password' }))
    expect(password.type).toBe('password')
    expect(screen.getByRole('link', { name: 'Forgot your password?' }).getAttribute('href')).toBe(
      '/forgot-password',
    )
    expect(screen.getByText(EMAIL)).toBeTruthy()
    const signIn = screen.getByRole('button', { name: 'Sign in' }) as HTMLButtonElement
    expect(signIn.disabled).toBe(true)
    fireEvent.click(screen.getByRole('button', { name: 'Back to email' }))
    expect(await screen.findByLabelText('Work Email')).toBeTruthy()
  })

  it("shows 'Signing in...' while the sign-in runs", async () => {
    await toPasswordStep()
    typePasswordAndSignIn()
    expect(await screen.findByText('Signing in...')).toBeTruthy()
  })

  it("shows 'Wrong credentials' on a 401", async () => {
    await toPasswordStep({
      login: () =>
        Promise.reject(Object.assign(new Error('Invalid'), { status: 401, body: { error: 'x' } })),
    })
    typePasswordAndSignIn()
    expect((await screen.findByRole('alert')).textContent).toBe('Wrong credentials')
  })

  it('signs in: the session is told after the pause and the user goes to /', async () => {
    const { router, sessionEvents } = await toPasswordStep({
      login: async () => tokens,
      store: async () => ({ claims, extension: null }),
    })
    typePasswordAndSignIn()
    expect(await screen.findByRole('heading', { name: 'Home screen' })).toBeTruthy()
    expect(router.state.location.pathname).toBe('/')
    expect(sessionEvents).toContainEqual({ type: 'session.login', claims })
  })

  it('requires_password_change: on to /force-password-change', async () => {
    const { sessionEvents } = await toPasswordStep({
      login: async () => ({ ...tokens, requires_password_change: true }),
      store: async () => ({ claims, extension: null }),
    })
    typePasswordAndSignIn()
    expect(await screen.findByRole('heading', { name: 'Change Your Password' })).toBeTruthy()
    expect(sessionEvents.some((event) => event.type === 'session.login')).toBe(false)
  })
})

describe('LoginPage with the real actors against a test server', () => {
  let server: ReturnType<typeof serve>
  let baseURL = ''

  beforeAll(async () => {
    const app = new Hono()
    app.post(`/api/v1${paths.sso.discover}`, (c) => c.json({ sso_enabled: false }))
    app.post(`/api/v1${paths.auth.login}`, (c) => c.json({ error: 'Invalid credentials' }, 401))
    server = await new Promise((resolve) => {
      const instance = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () =>
        resolve(instance),
      )
    })
    baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it("discovery, then 'Wrong credentials' for a 401 from login/", async () => {
    const client = createApiClient({ baseURL })
    const logic = loginMachine.provide({ actors: loginActors({ client, navigate: () => {} }) })
    renderLogin(logic)
    await screen.findByLabelText('Work Email')
    typeEmail(EMAIL)
    fireEvent.click(continueButton())
    await screen.findByRole('heading', { name: 'Enter password' }, { timeout: 3_000 })
    await act(async () => typePasswordAndSignIn('wrong'))
    expect((await screen.findByRole('alert', {}, { timeout: 3_000 })).textContent).toBe(
      'Wrong credentials',
    )
    expect(localStorage.getItem('access_token')).toBeNull()
  })
})
