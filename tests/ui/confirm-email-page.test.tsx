import { act, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fromPromise } from 'xstate'
import type { AccessClaims } from '../../contract/auth.ts'
import { AUTH_TEXTS } from '../../contract/auth-texts.ts'
import {
  type ConfirmEmailRequest,
  confirmEmailMachine,
} from '../../machines/confirm-email/index.ts'
import { CONFIRM_EMAIL_FAILED_REDIRECT_MS } from '../../machines/constants.ts'
import ConfirmEmailPage from '../../src/pages/auth/confirm-email-page.tsx'
import { deferred, renderAuthPage } from '../support/auth-page.tsx'

const claims: AccessClaims = { exp: 2_000_000_000, user: { email: 'ada@example.com' } }
const uuid = '6f1c2f4e-0000-4000-8000-000000000001'

function setup(url: string, confirm: () => Promise<AccessClaims> = async () => claims) {
  const calls: ConfirmEmailRequest[] = []
  const logic = confirmEmailMachine.provide({
    actors: {
      confirmEmail: fromPromise<AccessClaims, ConfirmEmailRequest>(({ input }) => {
        calls.push(input)
        return confirm()
      }),
    },
  })
  const view = renderAuthPage('/confirm_email', url, () => <ConfirmEmailPage logic={logic} />)
  return { ...view, calls }
}

afterEach(() => {
  vi.useRealTimers()
})

describe('/confirm_email', () => {
  it("shows 'Confirming your email...' and confirms by itself with the link's uuid", async () => {
    const { calls } = setup(`/confirm_email?uuid=${uuid}`, () => new Promise(() => {}))
    expect(await screen.findByText('Confirming your email...')).toBeTruthy()
    expect(calls).toEqual([{ uuid }])
  })

  it('a confirmed address signs the session in and goes to /', async () => {
    const call = deferred<AccessClaims>()
    const { path, sessionEvents } = setup(`/confirm_email?uuid=${uuid}`, () => call.promise)
    await screen.findByText('Confirming your email...')
    call.resolve(claims)
    expect(await screen.findByRole('heading', { name: 'Home screen' })).toBeTruthy()
    expect(path()).toBe('/')
    expect(sessionEvents).toContainEqual({ type: 'session.login', claims })
  })

  it('a failure says the link may be invalid or expired, then goes to /login after 3 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const { path, sessionEvents } = setup(`/confirm_email?uuid=${uuid}`, () =>
      Promise.reject({ status: 400 }),
    )
    expect((await screen.findByRole('alert')).textContent).toBe(AUTH_TEXTS.confirmEmailFailed)
    expect(screen.getByRole('link', { name: 'Back to Login' }).getAttribute('href')).toBe('/login')
    act(() => vi.advanceTimersByTime(CONFIRM_EMAIL_FAILED_REDIRECT_MS - 100))
    expect(path()).toBe('/confirm_email')
    act(() => vi.advanceTimersByTime(100))
    expect(await screen.findByRole('heading', { name: 'Login screen' })).toBeTruthy()
    expect(sessionEvents.filter((event) => event.type === 'session.login')).toEqual([])
  })

  it("a link without uuid: 'Invalid confirmation link' and no call", async () => {
    const { calls } = setup('/confirm_email')
    expect((await screen.findByRole('alert')).textContent).toBe(AUTH_TEXTS.invalidConfirmationLink)
    expect(calls).toEqual([])
  })
})
