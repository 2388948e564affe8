import { describe, expect, test } from 'vitest'
import type { AnyEventObject } from 'xstate'
import type { AccessClaims } from '../../contract/auth.ts'
import { SSO_CALLBACK_TEXTS } from '../../contract/sso.ts'
import { SSO_SUCCESS_REDIRECT_MS } from '../../machines/constants.ts'
import * as view from '../../machines/sso-callback/index.ts'
import { selectError, selectScreen, ssoCallbackMachine } from '../../machines/sso-callback/index.ts'
import { settle, startWithCall } from '../support/one-call.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const claims: AccessClaims = { exp: 2_000_000_000, user: { email: 'ada@acme.test' } }
const pending = pendingActors(ssoCallbackMachine)
const events: AnyEventObject[] = [
  { type: 'retry' },
  { type: 'xstate.done.actor.exchangeCode', output: claims },
  {
    type: 'xstate.error.actor.exchangeCode',
    error: { status: 400, error: 'The sign-in code is invalid or expired. Please sign in again.' },
  },
  { type: 'xstate.error.actor.exchangeCode', error: { status: 0 } },
]

const start = (input: object, exchange = async (): Promise<AccessClaims> => claims) =>
  startWithCall<{ code: string }, AccessClaims, typeof ssoCallbackMachine>(
    ssoCallbackMachine,
    'exchangeCode',
    input,
    exchange,
  )

describe('ssoCallbackMachine', () => {
  testEveryPath(pending, events, {
    view,
    inputs: [
      { code: 'one-time' },
      { error: 'access_denied', error_description: 'The user declined' },
      {},
    ],
  })

  test(`signs in, then goes to / after ${SSO_SUCCESS_REDIRECT_MS} ms replacing history`, async () => {
    const { actor, clock, emitted } = start({ code: 'one-time' })
    await settle()
    expect(selectScreen(actor.getSnapshot())).toBe('success')
    expect(emitted).toEqual([{ type: 'signedIn', claims }])
    clock.increment(SSO_SUCCESS_REDIRECT_MS - 1)
    expect(emitted).toHaveLength(1)
    clock.increment(1)
    expect(emitted.at(-1)).toEqual({ type: 'navigate', to: '/', replace: true })
  })

  test('shows the provider’s words, the missing code, or the server’s error; Try Again goes to login', async () => {
    expect(
      selectError(
        start({
          error: 'access_denied',
          error_description: 'The user declined',
        }).actor.getSnapshot(),
      ),
    ).toBe('The user declined')
    expect(selectError(start({ error: 'access_denied' }).actor.getSnapshot())).toBe('access_denied')
    expect(selectError(start({}).actor.getSnapshot())).toBe(SSO_CALLBACK_TEXTS.noCode)
    const refused = start({ code: 'old' }, () =>
      Promise.reject({ status: 400, error: 'Expired code' }),
    )
    await settle()
    expect(selectError(refused.actor.getSnapshot())).toBe('Expired code')
    const offline = start({ code: 'x' }, () => Promise.reject({ status: 0 }))
    await settle()
    expect(selectError(offline.actor.getSnapshot())).toBe(SSO_CALLBACK_TEXTS.unknown)
    offline.actor.send({ type: 'retry' })
    expect(offline.emitted.at(-1)).toEqual({ type: 'navigate', to: '/login', replace: false })
  })
})
