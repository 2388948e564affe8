import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { fromPromise } from 'xstate'
import { AUTH_TEXTS } from '../../contract/auth-texts.ts'
import {
  forgotPasswordMachine,
  type RequestPasswordResetInput,
} from '../../machines/forgot-password/index.ts'
import ForgotPasswordPage from '../../src/pages/auth/forgot-password-page.tsx'
import { deferred, renderAuthPage } from '../support/auth-page.tsx'

function setup(request: () => Promise<void> = async () => {}) {
  const calls: RequestPasswordResetInput[] = []
  const logic = forgotPasswordMachine.provide({
    actors: {
      requestPasswordReset: fromPromise<void, RequestPasswordResetInput>(({ input }) => {
        calls.push(input)
        return request()
      }),
    },
  })
  const view = renderAuthPage('/forgot-password', '/forgot-password', () => (
    <ForgotPasswordPage logic={logic} />
  ))
  return { ...view, calls, user: userEvent.setup() }
}

const sendButton = () => screen.getByRole('button', { name: 'Send Reset Link' })

describe('/forgot-password', () => {
  it("offers email entry; 'Send Reset Link' is disabled while the email is blank", async () => {
    const { user } = setup()
    const email = await screen.findByLabelText('Work Email')
    expect(sendButton()).toHaveProperty('disabled', true)
    await user.type(email, 'ada@example.com')
    expect(sendButton()).toHaveProperty('disabled', false)
    expect(screen.getByRole('link', { name: 'Back to Login' }).getAttribute('href')).toBe('/login')
  })

  it('sends the address, spins, then confirms: sent if an account exists, valid 1 hour', async () => {
    const call = deferred()
    const { calls, user, path } = setup(() => call.promise)
    await user.type(await screen.findByLabelText('Work Email'), 'ada@example.com')
    await user.click(sendButton())
    expect(calls).toEqual([{ email: 'ada@example.com' }])
    expect(screen.getByRole('button', { busy: true })).toHaveProperty('disabled', true)
    call.resolve()
    expect(await screen.findByText(AUTH_TEXTS.resetSent)).toBeTruthy()
    expect(screen.getAllByText(/1 hour/)).toHaveLength(1)
    await user.click(screen.getByRole('button', { name: 'Return to Login' }))
    expect(await screen.findByRole('heading', { name: 'Login screen' })).toBeTruthy()
    expect(path()).toBe('/login')
  })

  it("refuses an address without @: 'Please enter a valid email address'", async () => {
    const { calls, user } = setup()
    await user.type(await screen.findByLabelText('Work Email'), 'ada')
    await user.click(sendButton())
    expect(screen.getByText(AUTH_TEXTS.emailInvalid)).toBeTruthy()
    expect(calls).toEqual([])
  })

  it.each([
    [{ status: 400, detail: 'Enter a valid email address.' }, 'Enter a valid email address.'],
    [{ status: 500 }, 'Failed to send reset email'],
    [{ status: 0 }, 'An error occurred while sending the reset email'],
  ])('a failure %j shows %s', async (failure, text) => {
    const { user } = setup(() => Promise.reject(failure))
    await user.type(await screen.findByLabelText('Work Email'), 'ada@example.com')
    await user.click(sendButton())
    expect((await screen.findByRole('alert')).textContent).toBe(text)
    expect(sendButton()).toHaveProperty('disabled', false)
  })
})
