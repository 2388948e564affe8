import { describe, expect, test } from 'vitest'
import type { AnyEventObject } from 'xstate'
import type { AccessClaims } from '../../contract/auth.ts'
import { AUTH_TEXTS } from '../../contract/auth-texts.ts'
import * as view from '../../machines/confirm-email/index.ts'
import {
  type ConfirmEmailInput,
  type ConfirmEmailRequest,
  confirmEmailMachine,
  selectError,
  selectScreen,
} from '../../machines/confirm-email/index.ts'
import { CONFIRM_EMAIL_FAILED_REDIRECT_MS } from '../../machines/constants.ts'
import { settle, startWithCall } from '../support/one-call.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const claims: AccessClaims = { exp: 2_000_000_000, user: { email: 'ada@example.com' } }
const uuid = '6f1c2f4e-0000-4000-8000-000000000001'

/** An actor that never settles: the graph paths deliver its done and error events. */
const pending = pendingActors(confirmEmailMachine)

const events: AnyEventObject[] = [
  { type: 'xstate.done.actor.confirmEmail', output: claims },
  { type: 'xstate.error.actor.confirmEmail', error: { status: 400 } },
  {
    type: 'xstate.error.actor.confirmEmail',
    error: {
      status: 403,
      code: 'pending_approval',
      msg: 'Your email is confirmed. An admin of Acme must approve your request.',
    },
  },
  {
    type: 'xstate.error.actor.confirmEmail',
    error: { status: 400, code: 'already_confirmed', msg: AUTH_TEXTS.emailAlreadyConfirmed },
  },
]

const start = (input: ConfirmEmailInput, confirm = async (): Promise<AccessClaims> => claims) =>
  startWithCall<ConfirmEmailRequest, AccessClaims, typeof confirmEmailMachine>(
    confirmEmailMachine,
    'confirmEmail',
    input,
    confirm,
  )

describe('confirmEmailMachine', () => {
  testEveryPath(pending, events, {
    view,
    inputs: [{ uuid }, {}],
    assertState: (snapshot, { emitted }) => {
      if (selectScreen(snapshot) === 'confirmed') {
        expect(emitted).toEqual([{ type: 'signedIn', claims }])
      }
      if (selectScreen(snapshot) === 'failed') {
        expect(emitted.every((event) => event.type === 'navigate')).toBe(true)
      }
    },
  })

  test("confirms by itself with the link's uuid and hands the claims to the session", async () => {
    const { calls, emitted, snapshot } = start({ uuid })
    expect(selectScreen(snapshot())).toBe('confirming')
    expect(calls).toEqual([{ uuid }])
    await settle()
    expect(selectScreen(snapshot())).toBe('confirmed')
    expect(emitted).toEqual([{ type: 'signedIn', claims }])
  })

  test("a link without uuid: 'Invalid confirmation link', no call, then /login after 3 s", () => {
    const { calls, clock, emitted, snapshot } = start({ uuid: '' })
    expect(selectScreen(snapshot())).toBe('failed')
    expect(selectError(snapshot())).toBe(AUTH_TEXTS.invalidConfirmationLink)
    expect(calls).toEqual([])
    clock.increment(CONFIRM_EMAIL_FAILED_REDIRECT_MS - 1)
    expect(emitted).toEqual([])
    clock.increment(1)
    expect(emitted).toEqual([{ type: 'navigate', to: '/login' }])
  })

  test('a request to join: the address is confirmed, the page says an admin must approve, and stays', async () => {
    const text = 'Your email is confirmed. An admin of Acme must approve your request.'
    const { clock, emitted, snapshot } = start({ uuid }, () =>
      Promise.reject({ status: 403, code: 'pending_approval', msg: text }),
    )
    await settle()
    expect(selectScreen(snapshot())).toBe('awaitingApproval')
    expect(selectError(snapshot())).toBe(text)
    clock.increment(CONFIRM_EMAIL_FAILED_REDIRECT_MS * 2)
    expect(emitted).toEqual([])
  })

  test('a link opened again for a confirmed address says so, offers sign-in and stays (issue 39)', async () => {
    const { clock, emitted, snapshot } = start({ uuid }, () =>
      Promise.reject({
        status: 400,
        code: 'already_confirmed',
        msg: AUTH_TEXTS.emailAlreadyConfirmed,
      }),
    )
    await settle()
    expect(selectScreen(snapshot())).toBe('alreadyConfirmed')
    expect(selectError(snapshot())).toBe(AUTH_TEXTS.emailAlreadyConfirmed)
    clock.increment(CONFIRM_EMAIL_FAILED_REDIRECT_MS * 2)
    expect(emitted).toEqual([])
  })

  test('a failed confirmation says so, then goes to /login after 3 s and not 1 ms before', async () => {
    const { clock, emitted, snapshot } = start({ uuid }, () => Promise.reject({ status: 400 }))
    await settle()
    expect(selectScreen(snapshot())).toBe('failed')
    expect(selectError(snapshot())).toBe(AUTH_TEXTS.confirmEmailFailed)
    clock.increment(CONFIRM_EMAIL_FAILED_REDIRECT_MS - 1)
    expect(emitted).toEqual([])
    clock.increment(1)
    expect(emitted).toEqual([{ type: 'navigate', to: '/login' }])
  })
})
