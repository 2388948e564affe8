import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import { AUTH_TEXTS } from '../../contract/auth-texts.ts'
import {
  forgotPasswordMachine,
  type RequestFailure,
  type RequestPasswordResetInput,
  selectCanSubmit,
  selectEmailError,
  selectError,
  selectIsSending,
  selectIsSent,
} from '../../machines/forgot-password/index.ts'

import { offerWhileRunning } from '../support/invoked-events.ts'
import { testMachineCoverage } from '../support/machine-coverage.ts'
import { pendingActors } from '../support/pending-actors.ts'

/** An actor that never settles: the graph paths deliver its done and error events. */
const pending = pendingActors(forgotPasswordMachine)

const events: AnyEventObject[] = [
  { type: 'email.change', value: 'ada@example.com' },
  { type: 'email.change', value: 'ada' },
  { type: 'submit' },
  { type: 'xstate.done.actor.requestPasswordReset', output: undefined },
  { type: 'xstate.error.actor.requestPasswordReset', error: { status: 429, detail: 'Slow down' } },
]

function start(request: (input: RequestPasswordResetInput) => Promise<void> = async () => {}) {
  const calls: RequestPasswordResetInput[] = []
  const actor = createActor(
    forgotPasswordMachine.provide({
      actors: {
        requestPasswordReset: fromPromise<void, RequestPasswordResetInput>(({ input }) => {
          calls.push(input)
          return request(input)
        }),
      },
    }),
  ).start()
  return { actor, calls, snapshot: () => actor.getSnapshot() }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('forgotPasswordMachine', () => {
  test('every state and transition is reached by a replayed graph path', async () => {
    const report = await testMachineCoverage(pending, {
      events: offerWhileRunning(pending, events),
      assertState: (snapshot) => {
        // 'Send Reset Link' is disabled while the email is blank or the request runs
        expect(selectCanSubmit(snapshot)).toBe(
          snapshot.context.email !== '' && !selectIsSending(snapshot),
        )
      },
    })
    expect(report.states.unreached).toEqual([])
    expect(report.transitions.unreached).toEqual([])
  })

  test('sends the trimmed address and confirms', async () => {
    const { actor, calls, snapshot } = start()
    expect(selectCanSubmit(snapshot())).toBe(false)
    actor.send({ type: 'email.change', value: ' ada@example.com ' })
    expect(selectCanSubmit(snapshot())).toBe(true)
    actor.send({ type: 'submit' })
    expect(selectIsSending(snapshot())).toBe(true)
    expect(calls).toEqual([{ email: 'ada@example.com' }])
    await settle()
    expect(selectIsSent(snapshot())).toBe(true)
  })

  test('an address without @ is refused without a call', () => {
    const { actor, calls, snapshot } = start()
    actor.send({ type: 'email.change', value: 'ada' })
    actor.send({ type: 'submit' })
    expect(selectEmailError(snapshot())).toBe(AUTH_TEXTS.emailInvalid)
    expect(calls).toEqual([])
    actor.send({ type: 'email.change', value: 'ada@' })
    expect(selectEmailError(snapshot())).toBeNull()
  })

  test.each<[RequestFailure, string]>([
    [
      { status: 400, detail: 'Enter a valid email address.', error: 'Bad request' },
      'Enter a valid email address.',
    ],
    [{ status: 429, error: AUTH_TEXTS.tooManyAttempts }, AUTH_TEXTS.tooManyAttempts],
    [{ status: 500 }, AUTH_TEXTS.resetEmailFailed],
    [{ status: 0 }, AUTH_TEXTS.resetEmailNetwork],
  ])('a failure %j shows %s', async (failure, text) => {
    const { actor, snapshot } = start(() => Promise.reject(failure))
    actor.send({ type: 'email.change', value: 'ada@example.com' })
    actor.send({ type: 'submit' })
    await settle()
    expect(snapshot().value).toBe('editing')
    expect(selectError(snapshot())).toBe(text)
  })
})
