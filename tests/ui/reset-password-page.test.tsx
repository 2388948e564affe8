import { act, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fromPromise } from 'xstate'
import { AUTH_TEXTS } from '../../contract/auth-texts.ts'
import {
  PASSWORD_SAVED_REDIRECT_MS,
  RESET_LINK_REJECTED_REDIRECT_MS,
} from '../../machines/constants.ts'
import {
  type ConfirmPasswordResetInput,
  type RequestPasswordResetInput,
  resetPasswordMachine,
  type ValidateResetTokenInput,
  type ValidateResetTokenResponse,
} from '../../machines/reset-password/index.ts'
import ResetPasswordPage from '../../src/pages/auth/reset-password-page.tsx'
import { deferred, renderAuthPage, submitNewPassword } from '../support/auth-page.tsx'

interface Fakes {
  validate?: () => Promise<ValidateResetTokenResponse>
  confirm?: () => Promise<void>
  request?: () => Promise<void>
}

const valid: ValidateResetTokenResponse = { token_valid: true, user_email: 'ada@example.com' }
const expired: ValidateResetTokenResponse = {
  token_valid: false,
  user_email: 'ada@example.com',
  expired: true,
}

function setup(url: string, fakes: Fakes = {}) {
  const calls = {
    validate: [] as ValidateResetTokenInput[],
    confirm: [] as ConfirmPasswordResetInput[],
    request: [] as RequestPasswordResetInput[],
  }
  const logic = resetPasswordMachine.provide({
    actors: {
      validateResetToken: fromPromise(({ input }: { input: ValidateResetTokenInput }) => {
        calls.validate.push(input)
        return (fakes.validate ?? (async () => valid))()
      }),
      confirmPasswordReset: fromPromise(({ input }: { input: ConfirmPasswordResetInput }) => {
        calls.confirm.push(input)
        return (fakes.confirm ?? (async () => {}))()
      }),
      requestPasswordReset: fromPromise(({ input }: { input: RequestPasswordResetInput }) => {
        calls.request.push(input)
        return (fakes.request ?? (async () => {}))()
      }),
    },
  })
  const view = renderAuthPage('/reset-password', url, () => <ResetPasswordPage logic={logic} />)
  // with fake timers on, the user's pauses between keys move the fake clock
  const advanceTimers = (ms: number) => {
    if (vi.isFakeTimers()) vi.advanceTimersByTime(ms)
  }
  return { ...view, calls, user: userEvent.setup({ advanceTimers }) }
}

const link = '/reset-password?uid=MQ&token=c0ffee-token'

const fillPasswords = (
  user: ReturnType<typeof userEvent.setup>,
  password: string,
  confirm = password,
) => submitNewPassword(user, 'Reset Password', password, confirm)

afterEach(() => {
  vi.useRealTimers()
})

describe('/reset-password', () => {
  it("shows 'Validating reset link...' while the link is checked with its uid and token", async () => {
    const { calls } = setup(link, { validate: () => new Promise(() => {}) })
    expect(await screen.findByText('Validating reset link...')).toBeTruthy()
    expect(calls.validate).toEqual([{ uid: 'MQ', token: 'c0ffee-token' }])
  })

  it('reads a number-like uid as text', async () => {
    const { calls } = setup('/reset-password?uid=12&token=345')
    await screen.findByLabelText('New password')
    expect(calls.validate).toEqual([{ uid: '12', token: '345' }])
  })

  it("a link without a token: 'Invalid Reset Link', 'Invalid or missing token' and its two buttons", async () => {
    const { calls, user, path } = setup('/reset-password?uid=MQ')
    expect(await screen.findByRole('heading', { name: 'Invalid Reset Link' })).toBeTruthy()
    expect(screen.getByText(AUTH_TEXTS.invalidOrMissingToken)).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Back to Login' })).toBeTruthy()
    expect(calls.validate).toEqual([])
    await user.click(screen.getByRole('button', { name: 'Request New Reset Link' }))
    expect(await screen.findByRole('heading', { name: 'Forgot password screen' })).toBeTruthy()
    expect(path()).toBe('/forgot-password')
  })

  it("a link the server does not know: 'Invalid Reset Link'; Back to Login goes to /login", async () => {
    const { user, path } = setup(link, {
      validate: async () => ({ token_valid: false, user_email: null }),
    })
    expect(await screen.findByRole('heading', { name: 'Invalid Reset Link' })).toBeTruthy()
    expect(screen.queryByText(AUTH_TEXTS.invalidOrMissingToken)).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Back to Login' }))
    expect(await screen.findByRole('heading', { name: 'Login screen' })).toBeTruthy()
    expect(path()).toBe('/login')
  })

  it("an expired link: 'Reset Link Expired'; 'Send New Reset Link' mails the owner's address", async () => {
    const call = deferred()
    const { calls, user } = setup(link, {
      validate: async () => expired,
      request: () => call.promise,
    })
    expect(await screen.findByRole('heading', { name: 'Reset Link Expired' })).toBeTruthy()
    expect(screen.getByText('ada@example.com')).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Use Different Email' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Back to Login' })).toBeTruthy()
    await user.click(screen.getByRole('button', { name: 'Send New Reset Link' }))
    expect(calls.request).toEqual([{ email: 'ada@example.com' }])
    expect(screen.getByRole('button', { busy: true })).toHaveProperty('disabled', true)
    call.resolve()
    expect(await screen.findByText(/A new reset link is on its way/)).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Send New Reset Link' })).toBeNull()
  })

  it("an expired link without an address: 'Unable to resend - email not found'", async () => {
    const { calls, user } = setup(link, {
      validate: async () => ({ token_valid: false, user_email: null, expired: true }),
    })
    await user.click(await screen.findByRole('button', { name: 'Send New Reset Link' }))
    expect(screen.getByRole('alert').textContent).toBe(AUTH_TEXTS.resendEmailNotFound)
    expect(calls.request).toEqual([])
  })

  it("a failed resend: 'Failed to send new reset link'", async () => {
    const { user } = setup(link, {
      validate: async () => expired,
      request: () => Promise.reject({ status: 500 }),
    })
    await user.click(await screen.findByRole('button', { name: 'Send New Reset Link' }))
    expect((await screen.findByRole('alert')).textContent).toBe(AUTH_TEXTS.resendFailed)
  })

  it("'Use Different Email' goes to /forgot-password", async () => {
    const { user, path } = setup(link, { validate: async () => expired })
    await user.click(await screen.findByRole('button', { name: 'Use Different Email' }))
    expect(await screen.findByRole('heading', { name: 'Forgot password screen' })).toBeTruthy()
    expect(path()).toBe('/forgot-password')
  })

  it("a valid link: 'Reset Password' with new password and confirm, each with show/hide", async () => {
    const { user } = setup(link)
    expect(await screen.findByRole('heading', { name: 'Reset Password' })).toBeTruthy()
    const password = screen.getByLabelText('New password')
    const confirm = screen.getByLabelText('Confirm password')
    const toggles = screen.getAllByRole('button', { name: 'Show password' })
    expect(toggles).toHaveLength(2)
    const [first, second] = toggles
    await user.click(first!)
    expect(password.getAttribute('type')).toBe('text')
    expect(confirm.getAttribute('type')).toBe('password')
    await user.click(second!)
    expect(confirm.getAttribute('type')).toBe('text')
    await user.click(screen.getAllByRole('button', { name: 'Hide password' })[0]!)
    expect(password.getAttribute('type')).toBe('password')
  })

  it.each([
    ['short', 'short', AUTH_TEXTS.passwordTooShort],
    ['new-secret-1', 'new-secret-2', AUTH_TEXTS.passwordsDoNotMatch],
  ])('refuses %s confirmed as %s: %s', async (password, confirm, text) => {
    const { calls, user } = setup(link)
    await fillPasswords(user, password, confirm)
    expect(screen.getByRole('alert').textContent).toBe(text)
    expect(calls.confirm).toEqual([])
  })

  it('resets the password, says so, and goes to /login 3 s later', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const { calls, user, path } = setup(link)
    await fillPasswords(user, 'new-secret-1')
    expect(calls.confirm).toEqual([
      { uid: 'MQ', token: 'c0ffee-token', new_password: 'new-secret-1' },
    ])
    expect(await screen.findByText(/Your password has been reset/)).toBeTruthy()
    act(() => vi.advanceTimersByTime(PASSWORD_SAVED_REDIRECT_MS - 100))
    expect(path()).toBe('/reset-password')
    act(() => vi.advanceTimersByTime(100))
    expect(await screen.findByRole('heading', { name: 'Login screen' })).toBeTruthy()
  })

  it("a 400 about the token: 'Invalid or expired reset link', then /login", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const { user, path } = setup(link, {
      confirm: () =>
        Promise.reject({
          status: 400,
          error: 'Invalid or expired reset link',
          code: 'invalid_token',
        }),
    })
    await fillPasswords(user, 'new-secret-1')
    expect((await screen.findByRole('alert')).textContent).toBe(
      AUTH_TEXTS.invalidOrExpiredResetLink,
    )
    act(() => vi.advanceTimersByTime(RESET_LINK_REJECTED_REDIRECT_MS))
    expect(await screen.findByRole('heading', { name: 'Login screen' })).toBeTruthy()
    expect(path()).toBe('/login')
  })

  it.each([
    [{ status: 400, msg: 'Too similar to your email' }, 'Too similar to your email'],
    [{ status: 500 }, AUTH_TEXTS.resetFailed],
    [{ status: 0 }, AUTH_TEXTS.resetNetwork],
  ])('another failure %j shows %s on the form', async (failure, text) => {
    const { user } = setup(link, { confirm: () => Promise.reject(failure) })
    await fillPasswords(user, 'new-secret-1')
    expect((await screen.findByRole('alert')).textContent).toBe(text)
    expect(screen.getByRole('button', { name: 'Reset Password' })).toHaveProperty('disabled', false)
  })
})
