import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import { type ItemListQuery, itemListMachine } from '../../machines/item-list/index.ts'
import { testEveryPath } from './every-path.ts'

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
  testEveryPath(pending, events, {
    input: { kind: 'qa' },
    identity: (s) => [
      s.context.query.page > 1,
      Boolean(s.context.query.q),
      s.context.count,
      Boolean(s.context.error),
    ],
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
