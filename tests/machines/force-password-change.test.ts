import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { AccessClaims } from '../../contract/auth.ts'
import { AUTH_TEXTS } from '../../contract/auth-texts.ts'
import {
  type ChangePasswordForcedInput,
  forcePasswordChangeMachine,
  type RequestFailure,
  selectError,
  selectIsChanged,
  selectIsSubmitting,
} from '../../machines/force-password-change/index.ts'

import { offerWhileRunning } from '../support/invoked-events.ts'
import { testMachineCoverage } from '../support/machine-coverage.ts'
import { pendingActors } from '../support/pending-actors.ts'

const claims: AccessClaims = {
  exp: 2_000_000_000,
  user: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
}

/** An actor that never settles: the graph paths deliver its done and error events. */
const pending = pendingActors(forcePasswordChangeMachine)

const events: AnyEventObject[] = [
  { type: 'password.change', value: 'changed-pass-1' },
  { type: 'password.change', value: 'short' },
  { type: 'confirm.change', value: 'changed-pass-1' },
  { type: 'submit' },
  { type: 'xstate.done.actor.changePasswordForced', output: claims },
  { type: 'xstate.error.actor.changePasswordForced', error: { status: 400, msg: 'Nope' } },
]

function start(change: () => Promise<AccessClaims> = async () => claims) {
  const calls: ChangePasswordForcedInput[] = []
  const actor = createActor(
    forcePasswordChangeMachine.provide({
      actors: {
        changePasswordForced: fromPromise<AccessClaims, ChangePasswordForcedInput>(({ input }) => {
          calls.push(input)
          return change()
        }),
      },
    }),
  )
  const signedIn: AccessClaims[] = []
  actor.on('signedIn', (event) => signedIn.push(event.claims))
  actor.start()
  const fill = (password: string, confirm = password) => {
    actor.send({ type: 'password.change', value: password })
    actor.send({ type: 'confirm.change', value: confirm })
  }
  return { actor, calls, fill, signedIn, snapshot: () => actor.getSnapshot() }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('forcePasswordChangeMachine', () => {
  test('every state and transition is reached by a replayed graph path', async () => {
    const report = await testMachineCoverage(pending, {
      events: offerWhileRunning(pending, events),
      assertState: (snapshot, { emitted }) => {
        // the session hears of the new tokens exactly when the change succeeded
        expect(emitted.length > 0).toBe(selectIsChanged(snapshot))
        for (const event of emitted) expect(event).toEqual({ type: 'signedIn', claims })
      },
    })
    expect(report.states.unreached).toEqual([])
    expect(report.transitions.unreached).toEqual([])
  })

  test.each([
    ['short', 'short', AUTH_TEXTS.passwordTooShort],
    ['changed-pass-1', 'changed-pass-2', AUTH_TEXTS.passwordsDoNotMatch],
  ])('the password %s confirmed as %s is refused with %s', (password, confirm, text) => {
    const { actor, calls, fill, snapshot } = start()
    fill(password, confirm)
    actor.send({ type: 'submit' })
    expect(selectError(snapshot())).toBe(text)
    expect(calls).toEqual([])
  })

  test('sends {new_password} and hands the new claims to the session', async () => {
    const { actor, calls, fill, signedIn, snapshot } = start()
    fill('changed-pass-1')
    actor.send({ type: 'submit' })
    expect(selectIsSubmitting(snapshot())).toBe(true)
    expect(calls).toEqual([{ new_password: 'changed-pass-1' }])
    await settle()
    expect(selectIsChanged(snapshot())).toBe(true)
    expect(signedIn).toEqual([claims])
  })

  test.each<[RequestFailure, string]>([
    [
      { status: 400, error: AUTH_TEXTS.passwordTooCommon, msg: 'other' },
      AUTH_TEXTS.passwordTooCommon,
    ],
    [{ status: 400, msg: 'Same as the old password' }, 'Same as the old password'],
    [{ status: 500 }, AUTH_TEXTS.changePasswordFailed],
    [{ status: 0 }, AUTH_TEXTS.changePasswordFailed],
  ])('a failure %j shows %s', async (failure, text) => {
    const { actor, fill, signedIn, snapshot } = start(() => Promise.reject(failure))
    fill('changed-pass-1')
    actor.send({ type: 'submit' })
    await settle()
    expect(selectError(snapshot())).toBe(text)
    expect(signedIn).toEqual([])
  })
})
