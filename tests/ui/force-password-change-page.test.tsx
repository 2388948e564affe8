import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { fromPromise } from 'xstate'
import type { AccessClaims } from '../../contract/auth.ts'
import { AUTH_TEXTS } from '../../contract/auth-texts.ts'
import {
  type ChangePasswordForcedInput,
  forcePasswordChangeMachine,
} from '../../machines/force-password-change/index.ts'
import ForcePasswordChangePage from '../../src/pages/auth/force-password-change-page.tsx'
import { deferred, renderAuthPage, submitNewPassword } from '../support/auth-page.tsx'

const claims: AccessClaims = {
  exp: 2_000_000_000,
  user: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
}

function setup(change: () => Promise<AccessClaims> = async () => claims) {
  const calls: ChangePasswordForcedInput[] = []
  const logic = forcePasswordChangeMachine.provide({
    actors: {
      changePasswordForced: fromPromise<AccessClaims, ChangePasswordForcedInput>(({ input }) => {
        calls.push(input)
        return change()
      }),
    },
  })
  const view = renderAuthPage('/force-password-change', '/force-password-change', () => (
    <ForcePasswordChangePage logic={logic} />
  ))
  return { ...view, calls, user: userEvent.setup() }
}

const submit = (user: ReturnType<typeof userEvent.setup>, password: string, confirm = password) =>
  submitNewPassword(user, 'Change Password', password, confirm)

describe('/force-password-change', () => {
  it("shows 'Change Your Password', why, and both fields with show/hide", async () => {
    const { user } = setup()
    expect(await screen.findByRole('heading', { name: 'Change Your Password' })).toBeTruthy()
    expect(screen.getByText('You must change your password before continuing')).toBeTruthy()
    const password = screen.getByLabelText('New password')
    const confirm = screen.getByLabelText('Confirm password')
    const [first, second] = screen.getAllByRole('button', { name: 'Show password' })
    await user.click(first!)
    await user.click(second!)
    expect(password.getAttribute('type')).toBe('text')
    expect(confirm.getAttribute('type')).toBe('text')
  })

  it.each([
    ['short', 'short', AUTH_TEXTS.passwordTooShort],
    ['changed-pass-1', 'changed-pass-2', AUTH_TEXTS.passwordsDoNotMatch],
  ])('refuses %s confirmed as %s: %s', async (password, confirm, text) => {
    const { calls, user } = setup()
    await submit(user, password, confirm)
    expect(screen.getByRole('alert').textContent).toBe(text)
    expect(calls).toEqual([])
  })

  it('changes the password, signs the session in with the new claims and goes to /', async () => {
    const call = deferred<AccessClaims>()
    const { calls, path, sessionEvents, user } = setup(() => call.promise)
    await submit(user, 'changed-pass-1')
    expect(calls).toEqual([{ new_password: 'changed-pass-1' }])
    expect(screen.getByRole('button', { busy: true })).toHaveProperty('disabled', true)
    call.resolve(claims)
    expect(await screen.findByRole('heading', { name: 'Home screen' })).toBeTruthy()
    expect(path()).toBe('/')
    expect(sessionEvents).toContainEqual({ type: 'session.login', claims })
  })

  it.each([
    [{ status: 400, error: AUTH_TEXTS.passwordTooCommon }, AUTH_TEXTS.passwordTooCommon],
    [{ status: 400, msg: 'Same as the old password' }, 'Same as the old password'],
    [{ status: 500 }, AUTH_TEXTS.changePasswordFailed],
  ])('a failure %j shows %s', async (failure, text) => {
    const { sessionEvents, user } = setup(() => Promise.reject(failure))
    await submit(user, 'changed-pass-1')
    expect((await screen.findByRole('alert')).textContent).toBe(text)
    expect(sessionEvents.filter((event) => event.type === 'session.login')).toEqual([])
  })
})
