import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { TrustAnswer } from '../../contract/trust.ts'
import * as view from '../../machines/trust-ask/index.ts'
import { trustAskMachine, trustAskView } from '../../machines/trust-ask/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const answer: TrustAnswer = {
  answer: 'Yes: data is encrypted at rest with AES-256.',
  citations: [{ title: 'Encryption', snippet: 'AES-256', document_id: null }],
  answered: true,
}
type Asked = { slug: string; question: string }
const pending = pendingActors(trustAskMachine)
const events: AnyEventObject[] = [
  { type: 'edit', question: 'Do you encrypt data at rest?' },
  { type: 'ask' },
  { type: 'xstate.done.actor.askTrust', output: answer },
  { type: 'xstate.error.actor.askTrust', error: new Error('Too many requests') },
]

describe('trustAskMachine', () => {
  testEveryPath(pending, events, { view, input: { slug: 'acme' } })

  test('asks only a question, and keeps which question the answer is for', async () => {
    const asked: Asked[] = []
    const actor = createActor(
      trustAskMachine.provide({
        actors: {
          askTrust: fromPromise<TrustAnswer, Asked>(async ({ input }) => {
            asked.push(input)
            return answer
          }),
        },
      }),
      { input: { slug: 'acme' } },
    ).start()
    actor.send({ type: 'ask' })
    expect(trustAskView.error(actor.getSnapshot())).toBe('Ask a question')
    actor.send({ type: 'edit', question: '  Do you encrypt data at rest? ' })
    actor.send({ type: 'ask' })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(asked).toEqual([{ slug: 'acme', question: 'Do you encrypt data at rest?' }])
    expect(trustAskView.asked(actor.getSnapshot())).toBe('Do you encrypt data at rest?')
    expect(trustAskView.answer(actor.getSnapshot())).toEqual(answer)
  })
})
