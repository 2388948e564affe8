import { describe, expect, test } from 'vitest'
import {
  type AnyEventObject,
  createActor,
  fromPromise,
  SimulatedClock,
  type SnapshotFrom,
} from 'xstate'

import type { AccessClaims, TokenPair } from '../../contract/auth.ts'
import { AUTH_TEXTS, SSO_MESSAGE_FALLBACK, SSO_MESSAGES } from '../../contract/auth-texts.ts'
import {
  GOOGLE_AUTO_REDIRECT_MS,
  LOGIN_EVENT_PAUSE_MS,
  SSO_DISCOVERY_FALLBACK_MS,
} from '../../machines/constants.ts'
import {
  type DiscoverInput,
  type ExtensionHandOff,
  type HandOffInput,
  type LoginEmitted,
  type LoginInput,
  type LoginInputs,
  type LoginResponse,
  loginMachine,
  type SignInProviders,
  type SsoDiscoverResponse,
  type SsoStartInput,
  type StoredLogin,
  selectCanSubmit,
  selectError,
  selectGoogleOffered,
  selectIsLoading,
  selectNotice,
  selectOrganization,
  selectStep,
} from '../../machines/login/index.ts'
import { testMachineCoverage } from '../support/machine-coverage.ts'
import { pendingActors } from '../support/pending-actors.ts'

type LoginSnapshot = SnapshotFrom<typeof loginMachine>

const EMAIL = 'ada@example.com'
const claims: AccessClaims = { exp: 2_000_000_000, user: { email: EMAIL } }
const tokens: LoginResponse = { access: 'A1', refresh: 'R1', requires_password_change: false }
const mustChange: LoginResponse = { ...tokens, requires_password_change: true }
const extension: ExtensionHandOff = { redirectUri: 'chrome-extension://abc/', state: 's1' }
const ssoOn: SsoDiscoverResponse = {
  sso_enabled: true,
  result: { provider: 'microsoft', organization: 'Acme' },
}
const ssoOff: SsoDiscoverResponse = { sso_enabled: false }

const failure = (status: number, body?: unknown, message?: string) =>
  Object.assign(new Error(message ?? `Request failed (${status})`), { status, body })

const never = <T>() => new Promise<T>(() => {})

/** Actors that never settle: the graph paths deliver their done and error events. */
const pending = pendingActors(loginMachine)

const userEvents: AnyEventObject[] = [
  { type: 'email.change', value: '' },
  { type: 'email.change', value: '   ' },
  { type: 'email.change', value: 'ada' },
  { type: 'email.change', value: EMAIL },
  { type: 'email.submit' },
  { type: 'password.change', value: '' },
  { type: 'password.change', value: 'secret' },
  { type: 'password.submit' },
  { type: 'sso.continue' },
  { type: 'google.start' },
  { type: 'back' },
]

/** Results of each actor, offered only while that actor runs (keyed by invoke id). */
const results: Record<string, AnyEventObject[]> = {
  discoverSso: [
    { type: 'xstate.done.actor.discoverSso', output: ssoOn },
    { type: 'xstate.done.actor.discoverSso', output: ssoOff },
    { type: 'xstate.error.actor.discoverSso', error: failure(500) },
    { type: 'xstate.error.actor.discoverSso', error: failure(400, { error: 'Bad address' }) },
  ],
  login: [
    { type: 'xstate.done.actor.login', output: tokens },
    { type: 'xstate.done.actor.login', output: mustChange },
    { type: 'xstate.error.actor.login', error: failure(401, { error: 'Invalid' }) },
    {
      type: 'xstate.error.actor.login',
      error: failure(403, { error: 'Use Google', redirect_to_google: true }),
    },
    { type: 'xstate.error.actor.login', error: failure(400, { msg: 'Account locked' }) },
  ],
  storeTokens: [
    { type: 'xstate.done.actor.storeTokens', output: { claims, extension: null } },
    { type: 'xstate.done.actor.storeTokens', output: { claims, extension } },
    { type: 'xstate.error.actor.storeTokens', error: new Error('malformed token') },
  ],
  googleStart: [{ type: 'xstate.error.actor.googleStart', error: failure(502) }],
  googleRedirect: [{ type: 'xstate.error.actor.googleRedirect', error: failure(502) }],
  startSso: [{ type: 'xstate.error.actor.startSso', error: new Error('unknown provider') }],
  handOffToExtension: [
    { type: 'xstate.error.actor.handOffToExtension', error: new Error('not an extension') },
  ],
}
const RUNNING: Record<string, string> = {
  discovering: 'discoverSso',
  signingIn: 'login',
  storingTokens: 'storeTokens',
  googleStarting: 'googleStart',
  googleRedirecting: 'googleRedirect',
  ssoRedirecting: 'startSso',
  handingOff: 'handOffToExtension',
}
const eventsFor = (snapshot: LoginSnapshot) => {
  const state = typeof snapshot.value === 'string' ? snapshot.value : ''
  const actor = RUNNING[state]
  // the providers load runs beside every step; its answer is offered while the email step waits
  const providers =
    snapshot.matches('email') && snapshot.context.google === null
      ? [
          { type: 'xstate.done.actor.loadProviders', output: { google: false } },
          { type: 'xstate.done.actor.loadProviders', output: { google: true } },
          { type: 'xstate.error.actor.loadProviders', error: new Error('offline') },
        ]
      : []
  return [...userEvents, ...(actor ? (results[actor] ?? []) : []), ...providers] as never
}

type Fakes = {
  discover?: (input: DiscoverInput) => Promise<SsoDiscoverResponse>
  login?: (input: LoginInput) => Promise<LoginResponse>
  store?: (tokens: TokenPair) => Promise<StoredLogin>
  google?: () => Promise<void>
  sso?: (input: SsoStartInput) => Promise<void>
  handOff?: (input: HandOffInput) => Promise<void>
  providers?: () => Promise<SignInProviders>
}

/** A login flow on a simulated clock with promise fakes; records calls and emitted events. */
function start(fakes: Fakes = {}, input?: LoginInputs) {
  const clock = new SimulatedClock()
  const calls: { actor: string; input: unknown }[] = []
  const record =
    <I, O>(name: string, fn: ((input: I) => Promise<O>) | undefined) =>
    ({ input }: { input: I }) => {
      calls.push({ actor: name, input })
      return fn ? fn(input) : never<O>()
    }
  const actor = createActor(
    loginMachine.provide({
      actors: {
        discoverSso: fromPromise(record('discoverSso', fakes.discover)),
        login: fromPromise(record('login', fakes.login)),
        storeTokens: fromPromise(record('storeTokens', fakes.store)),
        startGoogle: fromPromise(record<unknown, void>('startGoogle', fakes.google)),
        startSso: fromPromise(record('startSso', fakes.sso)),
        handOffToExtension: fromPromise(record('handOffToExtension', fakes.handOff)),
        loadProviders: fromPromise(
          record<unknown, SignInProviders>('loadProviders', fakes.providers),
        ),
      },
    }),
    { clock, input },
  )
  const emitted: LoginEmitted[] = []
  actor.on('*', (event) => emitted.push(event))
  actor.start()
  const snapshot = () => actor.getSnapshot()
  return {
    actor,
    clock,
    calls,
    emitted,
    snapshot,
    called: (name: string) => calls.filter((call) => call.actor === name),
    /** Types the email and presses Continue. */
    submitEmail: (email = EMAIL) => {
      actor.send({ type: 'email.change', value: email })
      actor.send({ type: 'email.submit' })
    },
    submitPassword: (password = 'secret') => {
      actor.send({ type: 'password.change', value: password })
      actor.send({ type: 'password.submit' })
    },
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))
const discoverOff = async () => ssoOff

describe('loginMachine', () => {
  test('every state and transition is reached by a replayed graph path', async () => {
    const report = await testMachineCoverage(pending, {
      events: eventsFor,
      serializeState: (snapshot) => JSON.stringify([snapshot.value, snapshot.context]),
      assertState: (snapshot) => {
        // Continue is disabled while the email is blank or a check runs
        if (selectStep(snapshot) === 'email' && snapshot.context.email === '') {
          expect(selectCanSubmit(snapshot)).toBe(false)
        }
        if (selectIsLoading(snapshot)) expect(selectCanSubmit(snapshot)).toBe(false)
        if (snapshot.matches('sso')) expect(selectOrganization(snapshot)).toBe('Acme')
      },
    })
    expect(report.states.unreached).toEqual([])
    expect(report.transitions.unreached).toEqual([])
  })

  describe('email step', () => {
    test('Google is offered until the server says it is not configured (issue 39)', async () => {
      const off = start({ providers: async () => ({ google: false }) })
      expect(selectGoogleOffered(off.snapshot())).toBe(true)
      await settle()
      expect(selectGoogleOffered(off.snapshot())).toBe(false)
      const on = start({ providers: async () => ({ google: true }) })
      await settle()
      expect(selectGoogleOffered(on.snapshot())).toBe(true)
      const failing = start({ providers: () => Promise.reject(new Error('offline')) })
      await settle()
      expect(selectGoogleOffered(failing.snapshot())).toBe(true)
    })

    test('Continue is disabled while the email is blank', () => {
      const { actor, snapshot } = start()
      expect(selectStep(snapshot())).toBe('email')
      expect(selectCanSubmit(snapshot())).toBe(false)
      actor.send({ type: 'email.change', value: 'a' })
      expect(selectCanSubmit(snapshot())).toBe(true)
      actor.send({ type: 'email.change', value: '' })
      expect(selectCanSubmit(snapshot())).toBe(false)
    })

    test("a blank address: 'Please enter your email address'", () => {
      const { snapshot, submitEmail, called } = start()
      submitEmail('   ')
      expect(selectError(snapshot())).toBe('Please enter your email address')
      expect(called('discoverSso')).toEqual([])
    })

    test("no @: 'Please enter a valid email address'; typing clears it", () => {
      const { actor, snapshot, submitEmail } = start()
      submitEmail('ada.example.com')
      expect(selectError(snapshot())).toBe('Please enter a valid email address')
      actor.send({ type: 'email.change', value: 'ada@' })
      expect(selectError(snapshot())).toBeNull()
    })

    test('Continue is disabled while discovery runs', () => {
      const { snapshot, submitEmail, called } = start()
      submitEmail(` ${EMAIL} `)
      expect(snapshot().value).toBe('discovering')
      expect(selectIsLoading(snapshot())).toBe(true)
      expect(selectCanSubmit(snapshot())).toBe(false)
      expect(called('discoverSso')).toEqual([{ actor: 'discoverSso', input: { email: EMAIL } }])
    })
  })

  describe('discovery', () => {
    test('SSO enabled: the sso step with the organisation; back keeps the email', async () => {
      const { actor, snapshot, submitEmail } = start({ discover: async () => ssoOn })
      submitEmail()
      await settle()
      expect(selectStep(snapshot())).toBe('sso')
      expect(selectOrganization(snapshot())).toBe('Acme')
      actor.send({ type: 'back' })
      expect(selectStep(snapshot())).toBe('email')
      expect(snapshot().context.email).toBe(EMAIL)
      expect(selectCanSubmit(snapshot())).toBe(true)
    })

    test('SSO not enabled: the password step', async () => {
      const { snapshot, submitEmail } = start({ discover: discoverOff })
      submitEmail()
      await settle()
      expect(selectStep(snapshot())).toBe('password')
    })

    test('a 500 falls back to the password step 1.5 s later, not 1 ms sooner', async () => {
      const { clock, snapshot, submitEmail } = start({
        discover: () => Promise.reject(failure(500)),
      })
      submitEmail()
      await settle()
      expect(selectNotice(snapshot())).toBe(AUTH_TEXTS.ssoDiscovery500)
      expect(snapshot().value).toBe('discoveryFallback')
      clock.increment(SSO_DISCOVERY_FALLBACK_MS - 1)
      expect(selectStep(snapshot())).toBe('email')
      clock.increment(1)
      expect(selectStep(snapshot())).toBe('password')
      expect(selectNotice(snapshot())).toBe(AUTH_TEXTS.ssoDiscovery500)
    })

    test("other failures: the server's error text, else 'Failed to check SSO status'", async () => {
      const withText = start({ discover: () => Promise.reject(failure(400, { error: 'Nope' })) })
      withText.submitEmail()
      await settle()
      expect(selectStep(withText.snapshot())).toBe('email')
      expect(selectError(withText.snapshot())).toBe('Nope')

      const offline = start({ discover: () => Promise.reject(failure(0, undefined, 'Offline')) })
      offline.submitEmail()
      await settle()
      expect(selectError(offline.snapshot())).toBe(AUTH_TEXTS.ssoDiscoveryFailed)
    })
  })

  describe('sso step', () => {
    test("'Continue to {organization}' starts SSO with the provider and the email", async () => {
      const { actor, snapshot, submitEmail, called } = start({ discover: async () => ssoOn })
      submitEmail()
      await settle()
      actor.send({ type: 'sso.continue' })
      expect(snapshot().value).toBe('ssoRedirecting')
      expect(called('startSso')).toEqual([
        { actor: 'startSso', input: { provider: 'microsoft', email: EMAIL } },
      ])
    })

    test("a failed start: 'Failed to initiate SSO login. Please try again.'", async () => {
      const { actor, snapshot, submitEmail } = start({
        discover: async () => ssoOn,
        sso: () => Promise.reject(new Error('unknown provider')),
      })
      submitEmail()
      await settle()
      actor.send({ type: 'sso.continue' })
      await settle()
      expect(snapshot().value).toBe('sso')
      expect(selectError(snapshot())).toBe(AUTH_TEXTS.ssoStartFailed)
    })
  })

  describe('password step', () => {
    async function atPassword(fakes: Fakes) {
      const flow = start({ discover: discoverOff, ...fakes })
      flow.submitEmail()
      await settle()
      return flow
    }

    test('Sign in is disabled while the password is blank; back returns to email', async () => {
      const { actor, snapshot } = await atPassword({})
      expect(selectCanSubmit(snapshot())).toBe(false)
      actor.send({ type: 'password.change', value: 'x' })
      expect(selectCanSubmit(snapshot())).toBe(true)
      actor.send({ type: 'back' })
      expect(selectStep(snapshot())).toBe('email')
      expect(snapshot().context.password).toBe('')
    })

    test("a 401: 'Wrong credentials'", async () => {
      const { snapshot, submitPassword, called } = await atPassword({
        login: () => Promise.reject(failure(401, { error: 'Invalid email or password' })),
      })
      submitPassword()
      expect(selectIsLoading(snapshot())).toBe(true)
      await settle()
      expect(called('login')).toEqual([
        { actor: 'login', input: { email: EMAIL, password: 'secret' } },
      ])
      expect(selectStep(snapshot())).toBe('password')
      expect(selectError(snapshot())).toBe('Wrong credentials')
      expect(selectCanSubmit(snapshot())).toBe(true)
    })

    test.each([
      ['the error field', failure(400, { error: 'Locked', msg: 'ignored' }), 'Locked'],
      ['else the msg field', failure(400, { msg: 'Confirm your email' }), 'Confirm your email'],
      ['else the message', failure(0, undefined, 'Network error'), 'Network error'],
      ['else a generic text', {}, 'An error occurred'],
    ])('other failures show %s', async (_, error, text) => {
      const { snapshot, submitPassword } = await atPassword({ login: () => Promise.reject(error) })
      submitPassword()
      await settle()
      expect(selectError(snapshot())).toBe(text)
    })

    test('redirect_to_google: Google after 1.5 s, not 1 ms sooner', async () => {
      const { clock, snapshot, submitPassword, called } = await atPassword({
        login: () =>
          Promise.reject(failure(403, { error: 'Use Google', redirect_to_google: true })),
      })
      submitPassword()
      await settle()
      expect(selectError(snapshot())).toBe('Use Google')
      clock.increment(GOOGLE_AUTO_REDIRECT_MS - 1)
      expect(called('startGoogle')).toEqual([])
      clock.increment(1)
      expect(called('startGoogle')).toHaveLength(1)
      expect(snapshot().value).toBe('googleRedirecting')
    })

    test('a failed automatic Google redirect says to use the button', async () => {
      const { clock, snapshot, submitPassword } = await atPassword({
        login: () => Promise.reject(failure(403, { redirect_to_google: true })),
        google: () => Promise.reject(failure(502)),
      })
      submitPassword()
      await settle()
      clock.increment(GOOGLE_AUTO_REDIRECT_MS)
      await settle()
      expect(selectStep(snapshot())).toBe('password')
      expect(selectError(snapshot())).toBe(AUTH_TEXTS.googleRedirectFailed)
    })
  })

  describe('success', () => {
    async function signIn(fakes: Fakes) {
      const flow = start({ discover: discoverOff, login: async () => tokens, ...fakes })
      flow.submitEmail()
      await settle()
      flow.submitPassword()
      await settle()
      return flow
    }

    test('stores the tokens; the login event fires after 100 ms, not 1 ms sooner; then /', async () => {
      const { clock, emitted, snapshot, called } = await signIn({
        store: async () => ({ claims, extension: null }),
      })
      expect(called('storeTokens')).toEqual([
        { actor: 'storeTokens', input: { access: 'A1', refresh: 'R1' } },
      ])
      expect(snapshot().value).toBe('pausing')
      clock.increment(LOGIN_EVENT_PAUSE_MS - 1)
      expect(emitted).toEqual([])
      clock.increment(1)
      expect(emitted).toEqual([
        { type: 'signedIn', claims },
        { type: 'navigate', to: '/' },
      ])
      expect(snapshot().status).toBe('done')
    })

    test('requires_password_change: on to /force-password-change, no login event', async () => {
      const { clock, emitted } = await signIn({
        login: async () => mustChange,
        store: async () => ({ claims, extension: null }),
      })
      clock.increment(LOGIN_EVENT_PAUSE_MS)
      expect(emitted).toEqual([{ type: 'navigate', to: '/force-password-change' }])
    })

    test('a pending extension hand-off gets the tokens and state instead', async () => {
      const { clock, emitted, snapshot, called } = await signIn({
        store: async () => ({ claims, extension }),
      })
      expect(snapshot().value).toBe('handingOff')
      expect(called('handOffToExtension')).toEqual([
        {
          actor: 'handOffToExtension',
          input: { extension, tokens: { access: 'A1', refresh: 'R1' } },
        },
      ])
      clock.increment(LOGIN_EVENT_PAUSE_MS)
      expect(emitted).toEqual([])
    })

    test('tokens that cannot be stored or read: a generic error on the password step', async () => {
      const { snapshot } = await signIn({ store: () => Promise.reject(new Error('malformed')) })
      expect(selectStep(snapshot())).toBe('password')
      expect(selectError(snapshot())).toBe(AUTH_TEXTS.genericError)
    })
  })

  describe('Google', () => {
    test('the Google button starts Google sign-in', () => {
      const { actor, snapshot, called } = start()
      actor.send({ type: 'google.start' })
      expect(snapshot().value).toBe('googleStarting')
      expect(called('startGoogle')).toHaveLength(1)
    })

    test("a failed start: 'Failed to start Google authentication. Please try again.'", async () => {
      const { actor, snapshot } = start({ google: () => Promise.reject(failure(500)) })
      actor.send({ type: 'google.start' })
      await settle()
      expect(selectStep(snapshot())).toBe('email')
      expect(selectError(snapshot())).toBe(AUTH_TEXTS.googleStartFailed)
    })
  })

  describe('the message query parameter', () => {
    test.each(Object.entries(SSO_MESSAGES))('%s selects its text', (code, text) => {
      expect(selectError(start({}, { message: code }).snapshot())).toBe(text)
    })

    test.each(['nonsense', '__proto__', 'toString'])('%s gives the fallback text', (code) => {
      expect(selectError(start({}, { message: code }).snapshot())).toBe(SSO_MESSAGE_FALLBACK)
    })

    test('no message, no error', () => {
      expect(selectError(start({}, { message: '' }).snapshot())).toBeNull()
      expect(selectError(start().snapshot())).toBeNull()
    })
  })
})
