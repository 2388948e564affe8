import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import { AUTH_TEXTS } from '../../contract/auth-texts.ts'
import {
  type RegisterField,
  type RegisterInput,
  type RequestFailure,
  registerMachine,
  selectCanSubmit,
  selectEmailError,
  selectError,
  selectIsRegistered,
  selectIsSubmitting,
  selectMissing,
  selectPasswordError,
} from '../../machines/register/index.ts'

import { REGISTRATION } from '../support/account-tests.ts'
import { offerWhileRunning } from '../support/invoked-events.ts'
import { testMachineCoverage } from '../support/machine-coverage.ts'
import { pendingActors } from '../support/pending-actors.ts'

/** An actor that never settles: the graph paths deliver its done and error events. */
const pending = pendingActors(registerMachine)

const change = (field: RegisterField, value: string) =>
  ({ type: 'field.change', field, value }) as const

const events: AnyEventObject[] = [
  change('email', 'ada@example.com'),
  change('email', 'someone@ab'),
  change('password', 'secret-123'),
  change('password', 'short'),
  change('firstName', 'Ada'),
  change('lastName', 'Lovelace'),
  change('organization', 'Analytical Engines'),
  { type: 'email.blur' },
  { type: 'password.blur' },
  { type: 'consent.change', value: true },
  { type: 'submit' },
  { type: 'xstate.done.actor.register', output: undefined },
  { type: 'xstate.error.actor.register', error: { status: 400, msg: 'Already registered' } },
  { type: 'xstate.error.actor.register', error: { status: 0 } },
]

function start(register: (input: RegisterInput) => Promise<void> = async () => {}) {
  const calls: RegisterInput[] = []
  const actor = createActor(
    registerMachine.provide({
      actors: {
        register: fromPromise<void, RegisterInput>(({ input }) => {
          calls.push(input)
          return register(input)
        }),
      },
    }),
  ).start()
  const fill = (values: Partial<Record<RegisterField, string>>) => {
    for (const [field, value] of Object.entries(values)) {
      actor.send(change(field as RegisterField, value))
    }
  }
  return { actor, calls, fill, snapshot: () => actor.getSnapshot() }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

const complete = {
  email: 'ada@example.com',
  password: 'secret-123',
  firstName: 'Ada',
  lastName: 'Lovelace',
  organization: 'Analytical Engines',
}

describe('registerMachine', () => {
  test('every state and transition is reached by a replayed graph path', async () => {
    const report = await testMachineCoverage(pending, {
      events: offerWhileRunning(pending, events),
      // the three names behave alike: whether all are filled is what changes the flow
      serializeState: (snapshot) => {
        const { values, ...rest } = snapshot.context
        const named = Boolean(values.firstName && values.lastName && values.organization)
        return JSON.stringify([snapshot.value, values.email, values.password, named, rest])
      },
      assertState: (snapshot) => {
        // Register is disabled while an email error exists or while submitting
        expect(selectCanSubmit(snapshot)).toBe(
          selectEmailError(snapshot) === null && !selectIsSubmitting(snapshot),
        )
        if (selectIsRegistered(snapshot)) expect(snapshot.status).toBe('done')
      },
    })
    expect(report.states.unreached).toEqual([])
    expect(report.transitions.unreached).toEqual([])
  })

  test('a blank form sends nothing and says what is missing', () => {
    const { actor, calls, snapshot } = start()
    actor.send({ type: 'submit' })
    expect(snapshot().value).toBe('editing')
    expect(selectEmailError(snapshot())).toBe(AUTH_TEXTS.emailRequired)
    expect(selectMissing(snapshot())).toEqual(['firstName', 'lastName', 'organization', 'password'])
    expect(calls).toEqual([])
  })

  test.each([
    ['ada', AUTH_TEXTS.emailInvalid],
    ['ada @example.com', AUTH_TEXTS.emailInvalid],
    ['someone@ab', AUTH_TEXTS.domainTooShort],
    ['ada@example', AUTH_TEXTS.domainFormat],
  ])('the address %s is refused on leaving the field with %s', (email, text) => {
    const { actor, fill, snapshot } = start()
    fill({ email })
    expect(selectEmailError(snapshot())).toBeNull()
    actor.send({ type: 'email.blur' })
    expect(selectEmailError(snapshot())).toBe(text)
    expect(selectCanSubmit(snapshot())).toBe(false)
  })

  test('a corrected address clears the error as it is typed, and Register enables again', () => {
    const { actor, fill, snapshot } = start()
    fill({ email: 'someone@ab' })
    actor.send({ type: 'email.blur' })
    fill({ email: 'someone@abc' })
    expect(selectEmailError(snapshot())).toBe(AUTH_TEXTS.domainFormat)
    expect(selectCanSubmit(snapshot())).toBe(false)
    fill({ email: 'someone@abc.io' })
    expect(selectEmailError(snapshot())).toBeNull()
    expect(selectCanSubmit(snapshot())).toBe(true)
  })

  test('leaving a blank email field is not an error yet', () => {
    const { actor, snapshot } = start()
    actor.send({ type: 'email.blur' })
    expect(selectEmailError(snapshot())).toBeNull()
  })

  test('only the password length is enforced', () => {
    const { actor, calls, fill, snapshot } = start()
    fill({ ...complete, password: 'abcdefg' })
    actor.send({ type: 'submit' })
    expect(selectPasswordError(snapshot())).toBe(AUTH_TEXTS.passwordTooShort)
    expect(calls).toEqual([])
    fill({ password: 'abcdefgh' })
    expect(selectPasswordError(snapshot())).toBeNull()
    actor.send({ type: 'submit' })
    expect(calls).toHaveLength(1)
  })

  test('a password that breaks the rule shows it on leaving the field, and it clears as soon as it keeps it (issue 30)', () => {
    const { actor, fill, snapshot } = start()
    actor.send({ type: 'password.blur' })
    // leaving a blank password is not an error yet
    expect(selectPasswordError(snapshot())).toBeNull()
    fill({ password: 'abc' })
    expect(selectPasswordError(snapshot())).toBeNull()
    actor.send({ type: 'password.blur' })
    expect(selectPasswordError(snapshot())).toBe(AUTH_TEXTS.passwordTooShort)
    fill({ password: 'abcdefg' })
    expect(selectPasswordError(snapshot())).toBe(AUTH_TEXTS.passwordTooShort)
    fill({ password: 'abcdefgh' })
    expect(selectPasswordError(snapshot())).toBeNull()
    // a later change does not bring it back before the field is left again
    fill({ password: 'abc' })
    expect(selectPasswordError(snapshot())).toBeNull()
  })

  test('sends the registration payload of spec section 3, trimmed, and shows the success screen', async () => {
    const { actor, calls, fill, snapshot } = start()
    fill({ ...complete, email: ' ada@example.com ', firstName: ' Ada ' })
    actor.send({ type: 'consent.change', value: true })
    actor.send({ type: 'submit' })
    expect(selectIsSubmitting(snapshot())).toBe(true)
    expect(selectCanSubmit(snapshot())).toBe(false)
    expect(calls).toEqual([REGISTRATION])
    await settle()
    expect(selectIsRegistered(snapshot())).toBe(true)
  })

  test('marketing consent is false unless ticked', () => {
    const { actor, calls, fill } = start()
    fill(complete)
    actor.send({ type: 'submit' })
    expect(calls[0]?.marketing_consent).toBe(false)
  })

  test.each<[RequestFailure, string]>([
    [
      { status: 400, msg: 'Email already registered', error: 'Conflict' },
      'Email already registered',
    ],
    [{ status: 409, error: 'This email is already in use' }, 'This email is already in use'],
    [{ status: 500 }, AUTH_TEXTS.genericError],
    [{ status: 0 }, AUTH_TEXTS.genericError],
  ])('a failure %j shows %s and keeps the form', async (failure, text) => {
    const { actor, fill, snapshot } = start(() => Promise.reject(failure))
    fill(complete)
    actor.send({ type: 'submit' })
    await settle()
    expect(snapshot().value).toBe('editing')
    expect(selectError(snapshot())).toBe(text)
    // the next attempt starts without the old message
    actor.send({ type: 'submit' })
    expect(selectError(snapshot())).toBeNull()
  })

  test('an actor that throws something other than a request failure still shows a text', async () => {
    const { actor, fill, snapshot } = start(() => Promise.reject(new Error('boom')))
    fill(complete)
    actor.send({ type: 'submit' })
    await settle()
    expect(selectError(snapshot())).toBe(AUTH_TEXTS.genericError)
  })
})
