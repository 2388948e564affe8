import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import { type ItemListQuery, itemListMachine } from '../../machines/item-list/index.ts'
import { offerWhileRunning } from '../support/invoked-events.ts'
import { testMachineCoverage } from '../support/machine-coverage.ts'

const pending = itemListMachine.provide({
  actors: {
    loadItems: fromPromise<{ count: number; results: unknown[] }, ItemListQuery>(
      () => new Promise(() => {}),
    ),
  },
})
const events: AnyEventObject[] = [
  { type: 'search.change', q: 'mfa' },
  { type: 'page.change', page: 2 },
  { type: 'refresh' },
  { type: 'xstate.done.actor.0.itemList.loading', output: { count: 1, results: [{ id: 1 }] } },
  { type: 'xstate.error.actor.0.itemList.loading', error: new Error('offline') },
]

describe('itemListMachine', () => {
  test('every state and transition is reached by a replayed graph path', async () => {
    const report = await testMachineCoverage(pending, {
      events: offerWhileRunning(pending, events),
      input: { kind: 'qa' },
      serializeState: (s) =>
        JSON.stringify([
          s.value,
          s.context.query.page > 1,
          Boolean(s.context.query.q),
          s.context.count,
          Boolean(s.context.error),
        ]),
    })
    expect(report.states.unreached).toEqual([])
    expect(report.transitions.unreached).toEqual([])
  })

  test('loads the kind it was given, again on paging', async () => {
    const queries: ItemListQuery[] = []
    const actor = createActor(
      itemListMachine.provide({
        actors: {
          loadItems: fromPromise<{ count: number; results: unknown[] }, ItemListQuery>(
            async ({ input }) => {
              queries.push(input)
              return { count: 60, results: [] }
            },
          ),
        },
      }),
      { input: { kind: 'data' } },
    ).start()
    await new Promise((r) => setTimeout(r, 0))
    actor.send({ type: 'page.change', page: 2 })
    await new Promise((r) => setTimeout(r, 0))
    expect(queries.map((q) => [q.kind, q.page])).toEqual([
      ['data', 1],
      ['data', 2],
    ])
  })
})
