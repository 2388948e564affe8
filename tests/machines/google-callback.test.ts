import { describe, expect, test } from 'vitest'
import type { AnyEventObject } from 'xstate'
import type { AccessClaims } from '../../contract/auth.ts'
import { GOOGLE_CALLBACK_TEXTS } from '../../contract/sso.ts'
import {
  GOOGLE_CALLBACK_ERROR_REDIRECT_MS,
  GOOGLE_CALLBACK_FORBIDDEN_REDIRECT_MS,
} from '../../machines/constants.ts'
import * as view from '../../machines/google-callback/index.ts'
import {
  googleCallbackMachine,
  googleFailureText,
  selectError,
  selectFailed,
} from '../../machines/google-callback/index.ts'
import { settle, startWithCall } from '../support/one-call.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

type Input = { code: string; state: string; iss: string | null }
const claims: AccessClaims = { exp: 2_000_000_000, user: { email: 'lin@acme.test' } }
const pending = pendingActors(googleCallbackMachine)
const events: AnyEventObject[] = [
  { type: 'xstate.done.actor.completeGoogle', output: claims },
  { type: 'xstate.error.actor.completeGoogle', error: { status: 403, error: 'Not authorized' } },
  { type: 'xstate.error.actor.completeGoogle', error: { status: 400, redirect_to_login: true } },
]

const start = (input: object, complete = async (): Promise<AccessClaims> => claims) =>
  startWithCall<Input, AccessClaims, typeof googleCallbackMachine>(
    googleCallbackMachine,
    'completeGoogle',
    input,
    complete,
  )

describe('googleCallbackMachine', () => {
  testEveryPath(pending, events, {
    view,
    inputs: [{ code: 'c', state: 's' }, { error: 'access_denied' }, { code: 'c' }],
  })

  test('signs in with the code and state, and opens Quire', async () => {
    const { emitted, calls } = start({ code: 'c', state: 's', iss: 'https://accounts.google.com' })
    await settle()
    expect(calls).toEqual([{ code: 'c', state: 's', iss: 'https://accounts.google.com' }])
    expect(emitted).toEqual([
      { type: 'signedIn', claims },
      { type: 'navigate', to: '/' },
    ])
  })

  test(`back to login ${GOOGLE_CALLBACK_ERROR_REDIRECT_MS} ms after an error, ${GOOGLE_CALLBACK_FORBIDDEN_REDIRECT_MS} ms after a 403`, async () => {
    const cancelled = start({ error: 'access_denied' })
    expect(selectFailed(cancelled.actor.getSnapshot())).toBe(true)
    expect(selectError(cancelled.actor.getSnapshot())).toBe(GOOGLE_CALLBACK_TEXTS.providerError)
    cancelled.clock.increment(GOOGLE_CALLBACK_ERROR_REDIRECT_MS - 1)
    expect(cancelled.emitted).toEqual([])
    cancelled.clock.increment(1)
    expect(cancelled.emitted).toEqual([{ type: 'navigate', to: '/login' }])

    const refused = start({ code: 'c', state: 's' }, () =>
      Promise.reject({ status: 403, error: 'Not authorized' }),
    )
    await settle()
    expect(selectError(refused.actor.getSnapshot())).toBe('Not authorized')
    refused.clock.increment(GOOGLE_CALLBACK_ERROR_REDIRECT_MS)
    expect(refused.emitted).toEqual([])
    refused.clock.increment(
      GOOGLE_CALLBACK_FORBIDDEN_REDIRECT_MS - GOOGLE_CALLBACK_ERROR_REDIRECT_MS,
    )
    expect(refused.emitted).toEqual([{ type: 'navigate', to: '/login' }])
  })

  test('says what went wrong in the spec’s words', () => {
    expect(selectError(start({ code: 'c' }).actor.getSnapshot())).toBe(
      GOOGLE_CALLBACK_TEXTS.missingParameters,
    )
    expect(googleFailureText({ status: 403 })).toBe('Authentication failed')
    expect(googleFailureText({ status: 400, redirect_to_login: true, error: 'x' })).toBe(
      GOOGLE_CALLBACK_TEXTS.expired,
    )
    expect(googleFailureText({ status: 400, message: 'Bad code' })).toBe('Bad code')
    expect(googleFailureText({ status: 400 })).toBe('Invalid OAuth request')
    expect(googleFailureText({ status: 500 })).toBe(GOOGLE_CALLBACK_TEXTS.other)
  })
})
