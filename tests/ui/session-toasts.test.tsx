import { act, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type EventObject, fromCallback, fromPromise } from 'xstate'
import type { AccessClaims, ProfileResponse } from '../../contract/auth.ts'
import { AUTH_TEXTS } from '../../contract/auth-texts.ts'
import { SESSION_WARNING_TOAST_MS } from '../../machines/constants.ts'
import {
  type ClockReadEvent,
  type StoredSession,
  sessionMachine,
} from '../../machines/session/index.ts'
import { SessionContext } from '../../src/app/session.tsx'
import { SessionToasts } from '../../src/app/session-toasts.tsx'
import { Toaster, ToasterContext } from '../../src/app/toaster.tsx'

const user = { email: 'ada@example.com' }
const inSeconds = (seconds: number): AccessClaims => ({
  exp: Math.floor(Date.now() / 1_000) + seconds,
  user,
})

/** The app's session and toaster, with a stored token that has `seconds` left. */
function renderApp(options: {
  seconds: number
  refresh?: () => Promise<AccessClaims>
  loadProfile?: () => Promise<ProfileResponse>
}) {
  const claims = inSeconds(options.seconds)
  const session = sessionMachine.provide({
    actors: {
      readSession: fromPromise<StoredSession>(async () => ({ kind: 'valid', claims })),
      refreshSession: fromPromise<AccessClaims>(
        options.refresh ?? (() => new Promise<AccessClaims>(() => {})),
      ),
      loadProfile: fromPromise<ProfileResponse>(
        options.loadProfile ?? (() => new Promise<ProfileResponse>(() => {})),
      ),
      logout: fromPromise<void>(async () => {}),
      clearSession: fromPromise<void>(async () => {}),
      authEvents: fromCallback<EventObject>(() => () => {}),
      tabSync: fromCallback<EventObject>(() => () => {}),
      clock: fromCallback<ClockReadEvent>(({ sendBack, receive }) => {
        sendBack({ type: 'clock.now', now: Date.now() })
        receive(() => sendBack({ type: 'clock.now', now: Date.now() }))
      }),
    },
  })
  return render(
    <SessionContext.Provider logic={session}>
      <ToasterContext.Provider>
        <SessionToasts />
        <Toaster />
      </ToasterContext.Provider>
    </SessionContext.Provider>,
  )
}

const flush = () => act(async () => {})

describe('session toasts', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it("warns under 5 minutes with 'Extend Session', for 30 s and not 1 ms less", async () => {
    renderApp({ seconds: 200 })
    await flush()
    expect(screen.getByText(AUTH_TEXTS.sessionWarning)).toBeTruthy()
    expect(screen.getByRole('button', { name: AUTH_TEXTS.extendSession })).toBeTruthy()
    act(() => vi.advanceTimersByTime(SESSION_WARNING_TOAST_MS - 1))
    expect(screen.getByText(AUTH_TEXTS.sessionWarning)).toBeTruthy()
    act(() => vi.advanceTimersByTime(1))
    expect(screen.queryByText(AUTH_TEXTS.sessionWarning)).toBeNull()
  })

  it('no warning with more than 5 minutes left', async () => {
    renderApp({ seconds: 7_200 })
    await flush()
    expect(screen.queryByText(AUTH_TEXTS.sessionWarning)).toBeNull()
  })

  it("'Extend Session' refreshes: 'Session extended successfully!'", async () => {
    renderApp({ seconds: 200, refresh: async () => inSeconds(7_200) })
    await flush()
    fireEvent.click(screen.getByRole('button', { name: AUTH_TEXTS.extendSession }))
    await flush()
    expect(screen.queryByText(AUTH_TEXTS.sessionWarning)).toBeNull()
    expect(screen.getByText(AUTH_TEXTS.sessionExtended)).toBeTruthy()
  })

  it("a failed extension: 'Failed to extend session. Please log in again.'", async () => {
    renderApp({
      seconds: 200,
      refresh: () => Promise.reject(new Error('refused')),
    })
    await flush()
    fireEvent.click(screen.getByRole('button', { name: AUTH_TEXTS.extendSession }))
    await flush()
    expect(screen.getByText(AUTH_TEXTS.sessionExtendFailed)).toBeTruthy()
  })

  it("a failed profile load: 'Failed to fetch profile data'", async () => {
    renderApp({ seconds: 7_200, loadProfile: () => Promise.reject(new Error('offline')) })
    await flush()
    expect(screen.getByText(AUTH_TEXTS.profileLoadFailed)).toBeTruthy()
  })
})
