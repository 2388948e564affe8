import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { fromPromise } from 'xstate'
import { AUTH_TEXTS } from '../../contract/auth-texts.ts'
import { type RegisterInput, registerMachine } from '../../machines/register/index.ts'
import RegisterPage from '../../src/pages/auth/register-page.tsx'
import { REGISTRATION } from '../support/account-tests.ts'
import { deferred, renderAuthPage } from '../support/auth-page.tsx'

function setup(register: (input: RegisterInput) => Promise<void> = async () => {}) {
  const calls: RegisterInput[] = []
  const logic = registerMachine.provide({
    actors: {
      register: fromPromise<void, RegisterInput>(({ input }) => {
        calls.push(input)
        return register(input)
      }),
    },
  })
  const view = renderAuthPage('/register', '/register', () => <RegisterPage logic={logic} />)
  return { ...view, calls, user: userEvent.setup() }
}

const registerButton = () => screen.getByRole('button', { name: 'Register' })

async function fillForm(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByLabelText('Work Email'), 'ada@example.com')
  await user.type(screen.getByLabelText('First name'), 'Ada')
  await user.type(screen.getByLabelText('Last name'), 'Lovelace')
  await user.type(screen.getByLabelText('Organisation'), 'Analytical Engines')
  await user.type(screen.getByLabelText('Password'), 'secret-123')
}

describe('/register', () => {
  it("shows 'Create a Free Account' with every field, the hint, the checkbox and a link to login", async () => {
    setup()
    expect(await screen.findByRole('heading', { name: 'Create a Free Account' })).toBeTruthy()
    for (const label of ['Work Email', 'First name', 'Last name', 'Organisation', 'Password']) {
      expect(screen.getByLabelText(label)).toBeTruthy()
    }
    expect(screen.getByText(AUTH_TEXTS.passwordHint)).toBeTruthy()
    const consent = screen.getByRole('checkbox', { name: /product updates/ })
    expect(consent).toHaveProperty('checked', false)
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login')
    expect(registerButton()).toHaveProperty('disabled', false)
  })

  it("refuses a short domain on leaving the field with 'Invalid domain' and disables Register", async () => {
    const { user } = setup()
    await user.type(await screen.findByLabelText('Work Email'), 'someone@ab')
    await user.click(screen.getByLabelText('Password'))
    expect(screen.getByText(AUTH_TEXTS.domainTooShort, { exact: true })).toBeTruthy()
    expect(registerButton()).toHaveProperty('disabled', true)
    await user.type(screen.getByLabelText('Work Email'), 'c')
    expect(screen.getByText(AUTH_TEXTS.domainFormat)).toBeTruthy()
    await user.type(screen.getByLabelText('Work Email'), '.io')
    expect(screen.queryByText(AUTH_TEXTS.domainFormat)).toBeNull()
    expect(registerButton()).toHaveProperty('disabled', false)
  })

  it("says 'Please enter a valid email address' for an address without a domain", async () => {
    const { user } = setup()
    await user.type(await screen.findByLabelText('Work Email'), 'ada')
    await user.tab()
    expect(screen.getByText(AUTH_TEXTS.emailInvalid)).toBeTruthy()
  })

  it('sends nothing for a blank form and marks every required field', async () => {
    const { calls, user } = setup()
    await user.click(await screen.findByRole('button', { name: 'Register' }))
    expect(screen.getByText(AUTH_TEXTS.emailRequired)).toBeTruthy()
    for (const label of ['First name', 'Last name', 'Organisation', 'Password']) {
      expect(screen.getByText(`${label} is required`)).toBeTruthy()
    }
    expect(calls).toEqual([])
  })

  it("enforces only the password length: 'Password must be at least 8 characters long'", async () => {
    const { calls, user } = setup()
    await fillForm(user)
    await user.clear(screen.getByLabelText('Password'))
    await user.type(screen.getByLabelText('Password'), 'abc1234')
    await user.click(registerButton())
    expect(screen.getByText(AUTH_TEXTS.passwordTooShort)).toBeTruthy()
    expect(calls).toEqual([])
  })

  it('shows and hides the password', async () => {
    const { user } = setup()
    const password = await screen.findByLabelText('Password')
    await user.type(password, 'secret-123')
    expect(password.getAttribute('type')).toBe('password')
    await user.click(screen.getByRole('button', { name: 'Show password' }))
    expect(password.getAttribute('type')).toBe('text')
    await user.click(screen.getByRole('button', { name: 'Hide password' }))
    expect(password.getAttribute('type')).toBe('password')
  })

  it("registers with the payload of spec section 3, spins while sending, then 'Registration Successful!'", async () => {
    const call = deferred()
    const { calls, user, path } = setup(() => call.promise)
    await fillForm(user)
    await user.click(screen.getByRole('checkbox', { name: /product updates/ }))
    await user.click(registerButton())
    expect(calls).toEqual([REGISTRATION])
    // while sending, the button spins (its label is kept for width but hidden) and is disabled
    const busy = screen.getByRole('button', { busy: true })
    expect(busy).toHaveProperty('disabled', true)
    expect(busy.textContent).toContain('Register')
    call.resolve()
    expect(await screen.findByRole('heading', { name: 'Registration Successful!' })).toBeTruthy()
    expect(screen.getByText('Please check your email for the activation link.')).toBeTruthy()
    await user.click(screen.getByRole('button', { name: 'Back to Login' }))
    expect(await screen.findByRole('heading', { name: 'Login screen' })).toBeTruthy()
    expect(path()).toBe('/login')
  })

  it("shows the server's msg when registration fails, else 'An error occurred'", async () => {
    const failures = [{ status: 400, msg: 'This email is already registered' }, { status: 500 }]
    const { user } = setup(() => Promise.reject(failures.shift()))
    await fillForm(user)
    await user.click(registerButton())
    expect((await screen.findByRole('alert')).textContent).toBe('This email is already registered')
    await user.click(registerButton())
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(AUTH_TEXTS.genericError))
  })
})
