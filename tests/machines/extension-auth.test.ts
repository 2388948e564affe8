import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise, SimulatedClock } from 'xstate'
import { EXTENSION_TEXTS } from '../../contract/extension.ts'
import { EXTENSION_REDIRECT_MS } from '../../machines/constants.ts'
import * as view from '../../machines/extension-auth/index.ts'
import {
  type ExtensionSessionCheck,
  type ExtensionTokens,
  extensionAuthMachine,
  selectError,
  selectScreen,
  selectSecurity,
} from '../../machines/extension-auth/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const ID = 'abcdefghijklmnopabcdefghijklmnop'
const redirect = `chrome-extension://${ID}/`
const tokens: ExtensionTokens = {
  access_token: 'a',
  refresh_token: 'r',
  expires_in: 7200,
  state: 'st',
}
const pending = pendingActors(extensionAuthMachine)
const events: AnyEventObject[] = [
  { type: 'login' },
  { type: 'close' },
  { type: 'xstate.done.actor.checkSession', output: { extensionIds: [ID], signedIn: true } },
  { type: 'xstate.done.actor.checkSession', output: { extensionIds: [ID], signedIn: false } },
  { type: 'xstate.done.actor.checkSession', output: { extensionIds: ['other'], signedIn: true } },
  { type: 'xstate.error.actor.checkSession', error: new Error('offline') },
  { type: 'xstate.done.actor.handOff', output: tokens },
  { type: 'xstate.error.actor.handOff', error: new Error('400') },
]
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

function start(input: object, check: ExtensionSessionCheck) {
  const clock = new SimulatedClock()
  const actor = createActor(
    extensionAuthMachine.provide({
      actors: {
        checkSession: fromPromise<ExtensionSessionCheck, void>(async () => check),
        handOff: fromPromise<ExtensionTokens, { redirectUri: string; state: string }>(
          async ({ input: handOff }) => ({ ...tokens, state: handOff.state }),
        ),
      },
    }),
    { input, clock },
  )
  const emitted: AnyEventObject[] = []
  actor.on('*', (event) => emitted.push(event))
  actor.start()
  return { actor, clock, emitted }
}

describe('extensionAuthMachine', () => {
  testEveryPath(pending, events, {
    view,
    inputs: [
      { redirect_uri: redirect, state: 'st' },
      {},
      { redirect_uri: 'https://evil.example/', state: 'st' },
      { redirect_uri: redirect },
    ],
  })

  test(`hands the tokens to the allowed extension ${EXTENSION_REDIRECT_MS} ms later, in the fragment`, async () => {
    const { actor, clock, emitted } = start(
      { redirect_uri: redirect, state: 'st-1' },
      { extensionIds: [ID], signedIn: true },
    )
    await settle()
    expect(selectScreen(actor.getSnapshot())).toBe('redirecting')
    clock.increment(EXTENSION_REDIRECT_MS - 1)
    expect(emitted).toEqual([])
    clock.increment(1)
    expect(emitted).toEqual([
      {
        type: 'redirect',
        url: `${redirect}#access_token=a&refresh_token=r&expires_in=7200&state=st-1`,
      },
    ])
  })

  test('remembers the hand-off and offers the login when nobody is signed in', async () => {
    const { actor, emitted } = start(
      { redirect_uri: redirect, state: 'st' },
      { extensionIds: [ID], signedIn: false },
    )
    await settle()
    expect(selectScreen(actor.getSnapshot())).toBe('not_authenticated')
    expect(emitted).toEqual([{ type: 'storePending', redirectUri: redirect, state: 'st' }])
    actor.send({ type: 'login' })
    expect(emitted.at(-1)).toEqual({ type: 'navigate', to: '/login' })
  })

  test('refuses a missing, foreign or unlisted address with the spec’s words (AS13)', async () => {
    const missing = start({ state: 'st' }, { extensionIds: [ID], signedIn: true })
    expect(selectError(missing.actor.getSnapshot())).toBe('Missing redirect_uri parameter')
    const foreign = start(
      { redirect_uri: 'https://evil.example/', state: 'st' },
      { extensionIds: [ID], signedIn: true },
    )
    expect(selectError(foreign.actor.getSnapshot())).toBe(
      'Invalid redirect_uri: must be chrome-extension:// URL',
    )
    expect(selectSecurity(foreign.actor.getSnapshot())).toBe(true)
    for (const uri of [
      `${redirect}callback`,
      `chrome-extension://${ID}`,
      'chrome-extension://zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz/',
    ]) {
      const other = start(
        { redirect_uri: uri, state: 'st' },
        { extensionIds: [ID], signedIn: true },
      )
      await settle()
      expect(selectError(other.actor.getSnapshot())).toBe(EXTENSION_TEXTS.notAllowed)
    }
    foreign.actor.send({ type: 'close' })
    expect(foreign.emitted).toEqual([{ type: 'closeWindow' }])
  })
})
