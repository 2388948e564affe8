import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { TrustItems } from '../../contract/trust.ts'
import * as view from '../../machines/trust-content/index.ts'
import {
  trustContentMachine,
  trustContentView,
  type VisibilityChange,
} from '../../machines/trust-content/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const items: TrustItems = {
  files: [{ id: 1, name: 'SOC 2.pdf', size: 2048, visibility: 'private' }],
  qa: [{ id: 7, question: 'Do you encrypt?', answer: 'Yes.', visibility: 'private' }],
}
const pending = pendingActors(trustContentMachine)
const events: AnyEventObject[] = [
  { type: 'set', change: { kind: 'file', id: 1, visibility: 'nda' } },
  { type: 'retry' },
  { type: 'reload' },
  { type: 'xstate.done.actor.loadItems', output: items },
  { type: 'xstate.error.actor.loadItems', error: new Error('offline') },
  { type: 'xstate.done.actor.setVisibility', output: undefined },
  { type: 'xstate.error.actor.setVisibility', error: new Error('Not found.') },
]
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('trustContentMachine', () => {
  testEveryPath(pending, events, { view })

  test('shows a change at once and reads the truth again when the server refuses it', async () => {
    let refuse = false
    const actor = createActor(
      trustContentMachine.provide({
        actors: {
          loadItems: fromPromise<TrustItems, void>(async () => items),
          setVisibility: fromPromise<void, VisibilityChange>(async () => {
            if (refuse) throw new Error('Not found.')
          }),
        },
      }),
    ).start()
    await settle()
    actor.send({ type: 'set', change: { kind: 'qa', id: 7, visibility: 'public' } })
    expect(trustContentView.items(actor.getSnapshot()).qa[0]?.visibility).toBe('public')
    expect(trustContentView.pending(actor.getSnapshot())).toMatchObject({ id: 7 })
    await settle()
    expect(trustContentView.pending(actor.getSnapshot())).toBeNull()
    refuse = true
    actor.send({ type: 'set', change: { kind: 'file', id: 1, visibility: 'nda' } })
    expect(trustContentView.items(actor.getSnapshot()).files[0]?.visibility).toBe('nda')
    await settle()
    await settle()
    expect(trustContentView.error(actor.getSnapshot())).toBe('Not found.')
    expect(trustContentView.items(actor.getSnapshot()).files[0]?.visibility).toBe('private')
  })
})
