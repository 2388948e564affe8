import { act, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fromPromise } from 'xstate'
import type { AccessClaims } from '../../contract/auth.ts'
import { AUTH_TEXTS } from '../../contract/auth-texts.ts'
import { PASSWORD_SAVED_REDIRECT_MS } from '../../machines/constants.ts'
import { type SetPasswordRequest, setPasswordMachine } from '../../machines/set-password/index.ts'
import SetPasswordPage from '../../src/pages/auth/set-password-page.tsx'
import { deferred, renderAuthPage, submitNewPassword } from '../support/auth-page.tsx'

function setup(url: string, setPassword: () => Promise<AccessClaims | null> = async () => null) {
  const calls: SetPasswordRequest[] = []
  const logic = setPasswordMachine.provide({
    actors: {
      setPassword: fromPromise<AccessClaims | null, SetPasswordRequest>(({ input }) => {
        calls.push(input)
        return setPassword()
      }),
    },
  })
  const view = renderAuthPage('/set-password', url, () => <SetPasswordPage logic={logic} />)
  const advanceTimers = (ms: number) => {
    if (vi.isFakeTimers()) vi.advanceTimersByTime(ms)
  }
  return { ...view, calls, user: userEvent.setup({ advanceTimers }) }
}

const link = '/set-password?uid=Nw&token=invite-token'

const submit = (user: ReturnType<typeof userEvent.setup>, password: string, confirm = password) =>
  submitNewPassword(user, 'Set Password', password, confirm)

afterEach(() => {
  vi.useRealTimers()
})

describe('/set-password', () => {
  it("a link without uid or token: 'Invalid or Expired Link', 'Invalid or missing token', Back to Login", async () => {
    setup('/set-password?token=abc')
    expect(await screen.findByRole('heading', { name: 'Invalid or Expired Link' })).toBeTruthy()
    expect(screen.getByRole('alert').textContent).toBe(AUTH_TEXTS.invalidOrMissingToken)
    expect(screen.getByRole('link', { name: 'Back to Login' }).getAttribute('href')).toBe('/login')
  })

  it("shows 'Set Your Password' with new password and confirm, each with show/hide", async () => {
    const { user } = setup(link)
    expect(await screen.findByRole('heading', { name: 'Set Your Password' })).toBeTruthy()
    const password = screen.getByLabelText('New password')
    const confirm = screen.getByLabelText('Confirm password')
    const [first, second] = screen.getAllByRole('button', { name: 'Show password' })
    await user.click(first!)
    expect(password.getAttribute('type')).toBe('text')
    await user.click(second!)
    expect(confirm.getAttribute('type')).toBe('text')
    await user.click(screen.getAllByRole('button', { name: 'Hide password' })[1]!)
    expect(confirm.getAttribute('type')).toBe('password')
  })

  it.each([
    ['short', 'short', AUTH_TEXTS.passwordTooShort],
    ['first-pass-1', 'first-pass-2', AUTH_TEXTS.passwordsDoNotMatch],
  ])('refuses %s confirmed as %s: %s', async (password, confirm, text) => {
    const { calls, user } = setup(link)
    await submit(user, password, confirm)
    expect(screen.getByRole('alert').textContent).toBe(text)
    expect(calls).toEqual([])
  })

  it('sets the password (spinning meanwhile), says so, and goes to /login 3 s later', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const call = deferred()
    const { calls, user, path } = setup(link, () => call.promise.then(() => null))
    await submit(user, 'first-pass-1')
    expect(calls).toEqual([{ uid: 'Nw', token: 'invite-token', new_password: 'first-pass-1' }])
    expect(screen.getByRole('button', { busy: true })).toHaveProperty('disabled', true)
    call.resolve()
    expect(await screen.findByText(/Your password has been set/)).toBeTruthy()
    act(() => vi.advanceTimersByTime(PASSWORD_SAVED_REDIRECT_MS - 100))
    expect(path()).toBe('/set-password')
    act(() => vi.advanceTimersByTime(100))
    expect(await screen.findByRole('heading', { name: 'Login screen' })).toBeTruthy()
  })

  it("a 400 about the token: 'Invalid or Expired Link' with 'Invalid or expired token'", async () => {
    const { user } = setup(link, () =>
      Promise.reject({ status: 400, error: 'Invalid or expired token', code: 'invalid_token' }),
    )
    await submit(user, 'first-pass-1')
    expect(await screen.findByRole('heading', { name: 'Invalid or Expired Link' })).toBeTruthy()
    expect(screen.getByRole('alert').textContent).toBe(AUTH_TEXTS.invalidOrExpiredToken)
  })

  it("another failure: 'Failed to set password'", async () => {
    const { user } = setup(link, () => Promise.reject({ status: 500 }))
    await submit(user, 'first-pass-1')
    expect((await screen.findByRole('alert')).textContent).toBe(AUTH_TEXTS.setPasswordFailed)
  })
})
