import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise, SimulatedClock } from 'xstate'
import { AUTH_TEXTS } from '../../contract/auth-texts.ts'
import {
  PASSWORD_SAVED_REDIRECT_MS,
  RESET_LINK_REJECTED_REDIRECT_MS,
} from '../../machines/constants.ts'

import {
  type ConfirmPasswordResetInput,
  type RequestFailure,
  type RequestPasswordResetInput,
  type ResetPasswordInput,
  resetPasswordMachine,
  selectEmail,
  selectFormError,
  selectIsBusy,
  selectIsResent,
  selectLinkError,
  selectResendError,
  selectScreen,
  type ValidateResetTokenInput,
  type ValidateResetTokenResponse,
} from '../../machines/reset-password/index.ts'
import { expectFiresAfter } from '../support/account-tests.ts'
import { offerWhileRunning } from '../support/invoked-events.ts'
import { testMachineCoverage } from '../support/machine-coverage.ts'
import { pendingActors } from '../support/pending-actors.ts'

/** Actors that never settle: the graph paths deliver their done and error events. */
const pending = pendingActors(resetPasswordMachine)

const link = { uid: 'MQ', token: 'c0ffee-token' }
const valid: ValidateResetTokenResponse = { token_valid: true, user_email: 'ada@example.com' }
const expired: ValidateResetTokenResponse = {
  token_valid: false,
  user_email: 'ada@example.com',
  expired: true,
}

const events: AnyEventObject[] = [
  { type: 'password.change', value: 'new-secret-1' },
  { type: 'password.change', value: 'short' },
  { type: 'confirm.change', value: 'new-secret-1' },
  { type: 'submit' },
  { type: 'resend' },
  { type: 'xstate.done.actor.validateResetToken', output: valid },
  { type: 'xstate.done.actor.validateResetToken', output: expired },
  {
    type: 'xstate.done.actor.validateResetToken',
    output: { token_valid: false, user_email: null, expired: true },
  },
  {
    type: 'xstate.done.actor.validateResetToken',
    output: { token_valid: false, user_email: null },
  },
  { type: 'xstate.error.actor.validateResetToken', error: { status: 0 } },
  { type: 'xstate.done.actor.confirmPasswordReset', output: undefined },
  {
    type: 'xstate.error.actor.confirmPasswordReset',
    error: { status: 400, error: AUTH_TEXTS.invalidOrExpiredResetLink, code: 'invalid_token' },
  },
  { type: 'xstate.error.actor.confirmPasswordReset', error: { status: 0 } },
  { type: 'xstate.done.actor.requestPasswordReset', output: undefined },
  { type: 'xstate.error.actor.requestPasswordReset', error: { status: 500 } },
]

interface Fakes {
  validate?: (input: ValidateResetTokenInput) => Promise<ValidateResetTokenResponse>
  confirm?: (input: ConfirmPasswordResetInput) => Promise<void>
  request?: (input: RequestPasswordResetInput) => Promise<void>
}

function start(input: ResetPasswordInput, fakes: Fakes = {}, clock = new SimulatedClock()) {
  const calls = {
    validate: [] as ValidateResetTokenInput[],
    confirm: [] as ConfirmPasswordResetInput[],
    request: [] as RequestPasswordResetInput[],
  }
  const actor = createActor(
    resetPasswordMachine.provide({
      actors: {
        validateResetToken: fromPromise(({ input }: { input: ValidateResetTokenInput }) => {
          calls.validate.push(input)
          return (fakes.validate ?? (async () => valid))(input)
        }),
        confirmPasswordReset: fromPromise(({ input }: { input: ConfirmPasswordResetInput }) => {
          calls.confirm.push(input)
          return (fakes.confirm ?? (async () => {}))(input)
        }),
        requestPasswordReset: fromPromise(({ input }: { input: RequestPasswordResetInput }) => {
          calls.request.push(input)
          return (fakes.request ?? (async () => {}))(input)
        }),
      },
    }),
    { input, clock },
  )
  const navigations: string[] = []
  actor.on('navigate', (event) => navigations.push(event.to))
  actor.start()
  return { actor, calls, clock, navigations, snapshot: () => actor.getSnapshot() }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

/** A valid link with both fields filled in. */
async function startFilled(fakes: Fakes = {}, password = 'new-secret-1') {
  const flow = start(link, fakes)
  await settle()
  flow.actor.send({ type: 'password.change', value: password })
  flow.actor.send({ type: 'confirm.change', value: password })
  return flow
}

describe('resetPasswordMachine', () => {
  test('every state and transition is reached by a replayed graph path', async () => {
    const report = await testMachineCoverage(pending, {
      inputs: [link, {}, { uid: 'MQ' }],
      events: offerWhileRunning(pending, events),
      assertState: (snapshot, { emitted }) => {
        // the page only ever leaves for /login, and only from the two ending states
        for (const event of emitted) expect(event).toEqual({ type: 'navigate', to: '/login' })
        if (emitted.length) expect(['saved', 'rejected']).toContain(selectScreen(snapshot))
        if (selectScreen(snapshot) === 'checking') expect(selectIsBusy(snapshot)).toBe(true)
      },
    })
    expect(report.states.unreached).toEqual([])
    expect(report.transitions.unreached).toEqual([])
  })

  test("starts with 'Validating reset link...' and asks the server about the link", async () => {
    const { calls, snapshot } = start(link)
    expect(selectScreen(snapshot())).toBe('checking')
    expect(calls.validate).toEqual([link])
    await settle()
    expect(selectScreen(snapshot())).toBe('form')
    expect(selectEmail(snapshot())).toBe('ada@example.com')
  })

  test.each<[ResetPasswordInput]>([
    [{}],
    [{ uid: 'MQ' }],
    [{ token: 'abc' }],
    [{ uid: '', token: 'abc' }],
  ])("a link without uid or token (%j) is invalid at once: 'Invalid or missing token'", (input) => {
    const { calls, snapshot } = start(input)
    expect(selectScreen(snapshot())).toBe('invalid')
    expect(selectLinkError(snapshot())).toBe(AUTH_TEXTS.invalidOrMissingToken)
    expect(calls.validate).toEqual([])
  })

  test.each<[string, () => Promise<ValidateResetTokenResponse>]>([
    [
      'the server says the token is not valid',
      async () => ({ token_valid: false, user_email: null }),
    ],
    ['the check fails', () => Promise.reject({ status: 500 })],
  ])('the link is invalid when %s', async (_, validate) => {
    const { snapshot } = start(link, { validate })
    await settle()
    expect(selectScreen(snapshot())).toBe('invalid')
    expect(selectLinkError(snapshot())).toBeNull()
  })

  test("an expired link offers 'Send New Reset Link' to the owner's own address", async () => {
    const { actor, calls, snapshot } = start(link, { validate: async () => expired })
    await settle()
    expect(selectScreen(snapshot())).toBe('expired')
    actor.send({ type: 'resend' })
    expect(selectIsBusy(snapshot())).toBe(true)
    expect(calls.request).toEqual([{ email: 'ada@example.com' }])
    await settle()
    expect(selectIsResent(snapshot())).toBe(true)
    expect(selectResendError(snapshot())).toBeNull()
  })

  test("an expired link without an address: 'Unable to resend - email not found'", async () => {
    const { actor, calls, snapshot } = start(link, {
      validate: async () => ({ token_valid: false, user_email: null, expired: true }),
    })
    await settle()
    actor.send({ type: 'resend' })
    expect(selectResendError(snapshot())).toBe(AUTH_TEXTS.resendEmailNotFound)
    expect(calls.request).toEqual([])
  })

  test("a failed resend: 'Failed to send new reset link', and it can be tried again", async () => {
    const { actor, calls, snapshot } = start(link, {
      validate: async () => expired,
      request: () => Promise.reject({ status: 500, error: 'Mail is down' }),
    })
    await settle()
    actor.send({ type: 'resend' })
    await settle()
    expect(selectResendError(snapshot())).toBe(AUTH_TEXTS.resendFailed)
    actor.send({ type: 'resend' })
    expect(selectResendError(snapshot())).toBeNull()
    expect(calls.request).toHaveLength(2)
  })

  test.each([
    ['short', 'short', AUTH_TEXTS.passwordTooShort],
    ['new-secret-1', 'new-secret-2', AUTH_TEXTS.passwordsDoNotMatch],
  ])('the password %s confirmed as %s is refused with %s', async (password, confirm, text) => {
    const { actor, calls, snapshot } = start(link)
    await settle()
    actor.send({ type: 'password.change', value: password })
    actor.send({ type: 'confirm.change', value: confirm })
    actor.send({ type: 'submit' })
    expect(selectFormError(snapshot())).toBe(text)
    expect(calls.confirm).toEqual([])
    // editing again clears the message
    actor.send({ type: 'confirm.change', value: password })
    expect(selectFormError(snapshot())).toBeNull()
  })

  test('a reset sends {uid, token, new_password}, then goes to /login after 3 s and not 1 ms before', async () => {
    const { actor, calls, clock, navigations, snapshot } = await startFilled()
    actor.send({ type: 'submit' })
    expect(calls.confirm).toEqual([{ ...link, new_password: 'new-secret-1' }])
    await settle()
    expect(selectScreen(snapshot())).toBe('saved')
    expectFiresAfter(clock, PASSWORD_SAVED_REDIRECT_MS, () => navigations, [], ['/login'])
  })

  test("a 400 about the token: 'Invalid or expired reset link', then to /login after 3 s", async () => {
    const { actor, clock, navigations, snapshot } = await startFilled({
      confirm: () =>
        Promise.reject({
          status: 400,
          error: AUTH_TEXTS.invalidOrExpiredResetLink,
          code: 'invalid_token',
        }),
    })
    actor.send({ type: 'submit' })
    await settle()
    expect(selectScreen(snapshot())).toBe('rejected')
    expect(selectFormError(snapshot())).toBe(AUTH_TEXTS.invalidOrExpiredResetLink)
    expectFiresAfter(clock, RESET_LINK_REJECTED_REDIRECT_MS, () => navigations, [], ['/login'])
  })

  test.each<[RequestFailure, string]>([
    [
      { status: 400, msg: 'Too similar to your email', error: 'Bad request' },
      'Too similar to your email',
    ],
    [{ status: 400, error: AUTH_TEXTS.passwordTooCommon }, AUTH_TEXTS.passwordTooCommon],
    [{ status: 500 }, AUTH_TEXTS.resetFailed],
    [{ status: 0 }, AUTH_TEXTS.resetNetwork],
  ])('another failure %j shows %s and keeps the form', async (failure, text) => {
    const { actor, navigations, snapshot } = await startFilled({
      confirm: () => Promise.reject(failure),
    })
    actor.send({ type: 'submit' })
    await settle()
    expect(selectScreen(snapshot())).toBe('form')
    expect(selectFormError(snapshot())).toBe(text)
    expect(navigations).toEqual([])
  })
})
