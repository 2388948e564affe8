import { describe, expect, test } from 'vitest'
import type { AnyEventObject } from 'xstate'
import type { AccessClaims } from '../../contract/auth.ts'
import { USER_TEXTS } from '../../contract/users.ts'
import { MAGIC_LINK_FAILED_REDIRECT_MS } from '../../machines/constants.ts'
import * as view from '../../machines/magic-link/index.ts'
import {
  type MagicLinkInput,
  type MagicLinkRequest,
  type MagicLinkResult,
  magicLinkMachine,
  selectError,
  selectScreen,
} from '../../machines/magic-link/index.ts'
import { settle, startWithCall } from '../support/one-call.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const claims: AccessClaims = { exp: 2_000_000_000, user: { email: 'ada@example.com' } }
const signedIn: MagicLinkResult = { claims, requiresPasswordChange: false }
const mustChange: MagicLinkResult = { claims, requiresPasswordChange: true }
const link = { uid: '42', token: 'a-one-time-token' }

/** An actor that never settles: the graph paths deliver its done and error events. */
const pending = pendingActors(magicLinkMachine)

const events: AnyEventObject[] = [
  { type: 'xstate.done.actor.redeemMagicLink', output: signedIn },
  { type: 'xstate.done.actor.redeemMagicLink', output: mustChange },
  { type: 'xstate.error.actor.redeemMagicLink', error: { status: 400 } },
]

const start = (input: MagicLinkInput, redeem = async (): Promise<MagicLinkResult> => signedIn) =>
  startWithCall<MagicLinkRequest, MagicLinkResult, typeof magicLinkMachine>(
    magicLinkMachine,
    'redeemMagicLink',
    input,
    redeem,
  )

describe('magicLinkMachine', () => {
  testEveryPath(pending, events, {
    view,
    inputs: [link, { uid: '42' }],
    assertState: (snapshot, { emitted }) => {
      if (snapshot.matches('signedIn')) expect(emitted).toEqual([{ type: 'signedIn', claims }])
      if (snapshot.matches('passwordChangeRequired'))
        expect(emitted).toEqual([{ type: 'navigate', to: '/force-password-change' }])
      if (selectScreen(snapshot) === 'failed')
        expect(selectError(snapshot)).toBe(USER_TEXTS.invalidMagicLink)
    },
  })

  test('redeems the link once by itself and hands the claims to the session', async () => {
    const { calls, emitted, snapshot } = start(link)
    expect(selectScreen(snapshot())).toBe('signingIn')
    expect(calls).toEqual([link])
    await settle()
    expect(selectScreen(snapshot())).toBe('done')
    expect(emitted).toEqual([{ type: 'signedIn', claims }])
  })

  test('a pending temporary password sends the person to set their own first', async () => {
    const { emitted } = start(link, async () => mustChange)
    await settle()
    expect(emitted).toEqual([{ type: 'navigate', to: '/force-password-change' }])
  })

  test('a link without its token: no call, the refusal, then /login after 3 s and not before', () => {
    const { calls, clock, emitted, snapshot } = start({ uid: '42', token: '' })
    expect(selectScreen(snapshot())).toBe('failed')
    expect(calls).toEqual([])
    clock.increment(MAGIC_LINK_FAILED_REDIRECT_MS - 1)
    expect(emitted).toEqual([])
    clock.increment(1)
    expect(emitted).toEqual([{ type: 'navigate', to: '/login' }])
  })

  test('a refused link says so, then goes to /login', async () => {
    const { clock, emitted, snapshot } = start(link, () => Promise.reject({ status: 400 }))
    await settle()
    expect(selectError(snapshot())).toBe(USER_TEXTS.invalidMagicLink)
    clock.increment(MAGIC_LINK_FAILED_REDIRECT_MS)
    expect(emitted).toEqual([{ type: 'navigate', to: '/login' }])
  })
})
