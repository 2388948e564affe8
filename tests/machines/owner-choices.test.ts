import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import * as view from '../../machines/owner-choices/index.ts'
import {
  type OwnerChoices,
  ownerChoicesMachine,
  ownerChoicesView,
  ownerOptions,
} from '../../machines/owner-choices/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const choices: OwnerChoices = { people: [{ id: 2, name: 'Bea Ng' }], reviewCycleDays: 180 }
const pending = pendingActors(ownerChoicesMachine)
const events: AnyEventObject[] = [
  { type: 'retry' },
  { type: 'xstate.done.actor.0.ownerChoices.loading', output: choices },
  { type: 'xstate.error.actor.0.ownerChoices.loading', error: new Error('offline') },
]

describe('ownerChoicesMachine', () => {
  testEveryPath(pending, events, { view, identity: (s) => [s.context.people?.length ?? null] })

  test('loads the people and the organisation’s cycle once', async () => {
    let loads = 0
    const actor = createActor(
      ownerChoicesMachine.provide({
        actors: {
          loadOwnerChoices: fromPromise<OwnerChoices, void>(async () => {
            loads += 1
            return choices
          }),
        },
      }),
    ).start()
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(ownerChoicesView.people(actor.getSnapshot())).toEqual([{ id: 2, name: 'Bea Ng' }])
    expect(ownerChoicesView.reviewCycleDays(actor.getSnapshot())).toBe(180)
    expect(loads).toBe(1)
  })

  test('offers the caller and the current owner even when the people cannot be listed', () => {
    const self = { id: 1, name: 'Ada Lovelace' }
    const current = { id: 3, name: 'Cy Young' }
    expect(ownerOptions(null, self, current)).toEqual([self, current])
    expect(
      ownerOptions(
        [
          { id: 3, name: 'Cy Young' },
          { id: 2, name: 'Bea Ng' },
        ],
        self,
        current,
      ),
    ).toEqual([self, { id: 2, name: 'Bea Ng' }, current])
    expect(ownerOptions(null, null, null)).toEqual([])
  })
})
