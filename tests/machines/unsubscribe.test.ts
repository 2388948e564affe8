import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise, waitFor } from 'xstate'
import { COLLABORATION_TEXTS } from '../../contract/collaboration.ts'
import * as view from '../../machines/unsubscribe/index.ts'
import {
  type UnsubscribeFailure,
  unsubscribeMachine,
  unsubscribeView,
} from '../../machines/unsubscribe/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const pending = pendingActors(unsubscribeMachine)
const at = (kind: 'done' | 'error') => `xstate.${kind}.actor.0.unsubscribe.unsubscribing`
const refused: UnsubscribeFailure = {
  invalid: true,
  message: COLLABORATION_TEXTS.unsubscribeInvalid,
}
const events: AnyEventObject[] = [
  { type: 'retry' },
  { type: at('done'), output: { message: COLLABORATION_TEXTS.unsubscribed } },
  { type: at('error'), error: refused },
  { type: at('error'), error: { invalid: false, message: 'offline' } },
]

const run = (token: string | undefined, answer: () => Promise<{ message: string }>) =>
  createActor(unsubscribeMachine.provide({ actors: { unsubscribe: fromPromise(answer) } }), {
    input: { token },
  }).start()

describe('unsubscribeMachine', () => {
  // with a token, and without one (not valid at once)
  testEveryPath(pending, events, { view, inputs: [{ token: 'abc' }, { token: '' }] })

  test('unsubscribes with the link and says so in plain words', async () => {
    const actor = run('abc', async () => ({ message: COLLABORATION_TEXTS.unsubscribed }))
    await waitFor(actor, (s) => s.status === 'done')
    expect(unsubscribeView.screen(actor.getSnapshot())).toBe('done')
    expect(unsubscribeView.message(actor.getSnapshot())).toBe(COLLABORATION_TEXTS.unsubscribed)
  })

  test('a link the server refuses is not valid; a failed call can be tried again', async () => {
    const bad = run('abc', async () => {
      throw refused
    })
    await waitFor(bad, (s) => s.status === 'done')
    expect(unsubscribeView.screen(bad.getSnapshot())).toBe('invalid')
    expect(unsubscribeView.message(bad.getSnapshot())).toBe(COLLABORATION_TEXTS.unsubscribeInvalid)

    let calls = 0
    const flaky = run('abc', async () => {
      calls += 1
      if (calls === 1) throw { invalid: false, message: 'offline' }
      return { message: COLLABORATION_TEXTS.unsubscribed }
    })
    await waitFor(flaky, (s) => s.matches('failed'))
    expect(unsubscribeView.screen(flaky.getSnapshot())).toBe('failed')
    flaky.send({ type: 'retry' })
    await waitFor(flaky, (s) => s.status === 'done')
    expect(unsubscribeView.screen(flaky.getSnapshot())).toBe('done')
  })

  test('no token: not valid, without a call', () => {
    const actor = run(undefined, async () => {
      throw new Error('not called')
    })
    expect(unsubscribeView.screen(actor.getSnapshot())).toBe('invalid')
  })
})
