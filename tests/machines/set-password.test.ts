import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise, SimulatedClock } from 'xstate'
import type { AccessClaims } from '../../contract/auth.ts'
import { AUTH_TEXTS } from '../../contract/auth-texts.ts'
import { PASSWORD_SAVED_REDIRECT_MS } from '../../machines/constants.ts'
import {
  type RequestFailure,
  type SetPasswordInput,
  type SetPasswordRequest,
  selectFormError,
  selectIsSubmitting,
  selectLinkError,
  selectScreen,
  setPasswordMachine,
} from '../../machines/set-password/index.ts'

import { expectFiresAfter } from '../support/account-tests.ts'
import { offerWhileRunning } from '../support/invoked-events.ts'
import { testMachineCoverage } from '../support/machine-coverage.ts'
import { pendingActors } from '../support/pending-actors.ts'

/** An actor that never settles: the graph paths deliver its done and error events. */
const pending = pendingActors(setPasswordMachine)

const link = { uid: 'Nw', token: 'invite-token' }
const claims: AccessClaims = { exp: 2_000_000_000, user: { email: 'ann@example.com' } }

const events: AnyEventObject[] = [
  { type: 'password.change', value: 'first-pass-1' },
  { type: 'password.change', value: 'short' },
  { type: 'confirm.change', value: 'first-pass-1' },
  { type: 'submit' },
  { type: 'xstate.done.actor.setPassword', output: null },
  { type: 'xstate.done.actor.setPassword', output: claims },
  {
    type: 'xstate.error.actor.setPassword',
    error: { status: 400, error: AUTH_TEXTS.invalidOrExpiredToken, code: 'invalid_token' },
  },
  { type: 'xstate.error.actor.setPassword', error: { status: 500 } },
]

function start(
  input: SetPasswordInput,
  setPassword: (input: SetPasswordRequest) => Promise<AccessClaims | null> = async () => null,
) {
  const calls: SetPasswordRequest[] = []
  const clock = new SimulatedClock()
  const actor = createActor(
    setPasswordMachine.provide({
      actors: {
        setPassword: fromPromise<AccessClaims | null, SetPasswordRequest>(({ input }) => {
          calls.push(input)
          return setPassword(input)
        }),
      },
    }),
    { input, clock },
  )
  const navigations: string[] = []
  actor.on('navigate', (event) => navigations.push(event.to))
  actor.on('signedIn', () => navigations.push('signed in'))
  actor.start()
  const fill = (password: string, confirm = password) => {
    actor.send({ type: 'password.change', value: password })
    actor.send({ type: 'confirm.change', value: confirm })
  }
  return { actor, calls, clock, fill, navigations, snapshot: () => actor.getSnapshot() }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('setPasswordMachine', () => {
  test('every state and transition is reached by a replayed graph path', async () => {
    const report = await testMachineCoverage(pending, {
      inputs: [link, {}],
      events: offerWhileRunning(pending, events),
      assertState: (snapshot, { emitted }) => {
        for (const event of emitted) {
          if (event.type === 'signedIn') expect(selectScreen(snapshot)).toBe('signedIn')
          else expect(event).toEqual({ type: 'navigate', to: '/login' })
        }
        if (emitted.some((event) => event.type === 'navigate')) {
          expect(selectScreen(snapshot)).toBe('saved')
        }
      },
    })
    expect(report.states.unreached).toEqual([])
    expect(report.transitions.unreached).toEqual([])
  })

  test('a link with uid and token opens the form', () => {
    const { snapshot } = start(link)
    expect(selectScreen(snapshot())).toBe('form')
  })

  test.each<[SetPasswordInput]>([[{}], [{ uid: 'Nw' }], [{ token: 'abc', uid: null }]])(
    "a link without uid or token (%j): 'Invalid or missing token'",
    (input) => {
      const { snapshot } = start(input)
      expect(selectScreen(snapshot())).toBe('invalid')
      expect(selectLinkError(snapshot())).toBe(AUTH_TEXTS.invalidOrMissingToken)
    },
  )

  test.each([
    ['short', 'short', AUTH_TEXTS.passwordTooShort],
    ['first-pass-1', 'first-pass-2', AUTH_TEXTS.passwordsDoNotMatch],
  ])('the password %s confirmed as %s is refused with %s', (password, confirm, text) => {
    const { actor, calls, fill, snapshot } = start(link)
    fill(password, confirm)
    actor.send({ type: 'submit' })
    expect(selectFormError(snapshot())).toBe(text)
    expect(calls).toEqual([])
  })

  test('sets the password with {uid, token, new_password}, then goes to /login after 3 s', async () => {
    const { actor, calls, clock, fill, navigations, snapshot } = start(link)
    fill('first-pass-1')
    actor.send({ type: 'submit' })
    expect(selectIsSubmitting(snapshot())).toBe(true)
    expect(calls).toEqual([{ ...link, new_password: 'first-pass-1' }])
    await settle()
    expect(selectScreen(snapshot())).toBe('saved')
    expectFiresAfter(clock, PASSWORD_SAVED_REDIRECT_MS, () => navigations, [], ['/login'])
  })

  test('an accepted invitation signs the person in at once, with no trip to /login (issue 39)', async () => {
    const { actor, clock, fill, navigations, snapshot } = start(link, async () => claims)
    fill('first-pass-1')
    actor.send({ type: 'submit' })
    await settle()
    expect(selectScreen(snapshot())).toBe('signedIn')
    clock.increment(PASSWORD_SAVED_REDIRECT_MS * 2)
    expect(navigations).toEqual(['signed in'])
  })

  test("a 400 about the token: 'Invalid or Expired Link' with 'Invalid or expired token'", async () => {
    const { actor, fill, snapshot } = start(link, () =>
      Promise.reject({ status: 400, error: 'Invalid or expired token', code: 'invalid_token' }),
    )
    fill('first-pass-1')
    actor.send({ type: 'submit' })
    await settle()
    expect(selectScreen(snapshot())).toBe('invalid')
    expect(selectLinkError(snapshot())).toBe(AUTH_TEXTS.invalidOrExpiredToken)
  })

  test.each<[RequestFailure, string]>([
    [{ status: 500, error: 'Something went wrong on our side.' }, AUTH_TEXTS.setPasswordFailed],
    [{ status: 0 }, AUTH_TEXTS.setPasswordFailed],
    // a password rule the server enforces is named as the server names it
    [{ status: 400, error: AUTH_TEXTS.passwordTooCommon }, AUTH_TEXTS.passwordTooCommon],
    [{ status: 400 }, AUTH_TEXTS.setPasswordFailed],
  ])('another failure %j shows %s and keeps the form', async (failure, text) => {
    const { actor, fill, snapshot } = start(link, () => Promise.reject(failure))
    fill('first-pass-1')
    actor.send({ type: 'submit' })
    await settle()
    expect(selectScreen(snapshot())).toBe('form')
    expect(selectFormError(snapshot())).toBe(text)
  })
})
