import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import * as view from '../../machines/item-list/index.ts'
import { type ItemListQuery, itemListMachine } from '../../machines/item-list/index.ts'
import { qaItemOf } from '../fixtures/qa-items.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const pending = pendingActors(itemListMachine)
const events: AnyEventObject[] = [
  { type: 'search.change', q: 'mfa' },
  { type: 'page.change', page: 2 },
  { type: 'refresh' },
  { type: 'filter.change', filters: { freshness: 'stale' } },
  { type: 'filter.change', filters: { freshness: null, owner: 'me' } },
  { type: 'item.reviewed', item: qaItemOf({ id: 1, daysAgo: 0 }) },
  { type: 'xstate.done.actor.0.itemList.loading', output: { count: 1, results: [{ id: 1 }] } },
  { type: 'xstate.error.actor.0.itemList.loading', error: new Error('offline') },
]

/** The list of `kind` with the queries it sends recorded, each answered with 60 items. */
function startRecording(kind: ItemListQuery['kind']) {
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
    { input: { kind } },
  ).start()
  return { actor, queries }
}

describe('itemListMachine', () => {
  testEveryPath(pending, events, {
    view,
    // the default check found that `loading` is the first load only: a reload keeps what was
    // read on screen, with no loading sign, while the 'loading' tag is on
    except: { tags: ['loading'] },
    assertState: (s) => {
      expect(view.itemListView.loading(s)).toBe(
        s.hasTag('loading') &&
          view.itemListView.count(s) === 0 &&
          view.itemListView.items(s).length === 0,
      )
    },
    input: { kind: 'qa' },
    identity: (s) => [
      s.context.query.page > 1,
      Boolean(s.context.query.q),
      s.context.query.freshness,
      s.context.query.owner,
      s.context.count,
      Boolean(s.context.error),
    ],
  })

  test('loads the kind it was given, again on paging', async () => {
    const { actor, queries } = startRecording('data')
    await new Promise((r) => setTimeout(r, 0))
    actor.send({ type: 'page.change', page: 2 })
    await new Promise((r) => setTimeout(r, 0))
    expect(queries.map((q) => [q.kind, q.page])).toEqual([
      ['data', 1],
      ['data', 2],
    ])
  })

  test('filters Q&A items by freshness and owner from the first page', async () => {
    const { actor, queries } = startRecording('qa')
    await new Promise((r) => setTimeout(r, 0))
    actor.send({ type: 'page.change', page: 2 })
    actor.send({ type: 'filter.change', filters: { freshness: 'stale' } })
    await new Promise((r) => setTimeout(r, 0))
    actor.send({ type: 'filter.change', filters: { owner: 'none' } })
    await new Promise((r) => setTimeout(r, 0))
    expect(queries.at(-1)).toMatchObject({
      page: 1,
      freshness: 'stale',
      owner: 'none',
      queue: false,
    })
  })

  test('a reviewed item takes its row’s place, and leaves the review queue and a stale-only list', async () => {
    const rows = [qaItemOf({ id: 1, daysAgo: 400 }), qaItemOf({ id: 2, daysAgo: 350 })]
    const start = (input: { kind: 'qa'; queue?: boolean }) =>
      createActor(
        itemListMachine.provide({
          actors: {
            loadItems: fromPromise<{ count: number; results: unknown[] }, ItemListQuery>(
              async () => ({ count: 2, results: rows }),
            ),
          },
        }),
        { input },
      ).start()
    const reviewed = qaItemOf({ id: 1, daysAgo: 0 })

    const all = start({ kind: 'qa' })
    await new Promise((r) => setTimeout(r, 0))
    all.send({ type: 'item.reviewed', item: reviewed })
    expect(all.getSnapshot().context.results).toEqual([reviewed, rows[1]])

    const queue = start({ kind: 'qa', queue: true })
    await new Promise((r) => setTimeout(r, 0))
    queue.send({ type: 'item.reviewed', item: reviewed })
    expect(queue.getSnapshot().context.results).toEqual([rows[1]])
    expect(queue.getSnapshot().context.count).toBe(1)

    const staleOnly = start({ kind: 'qa' })
    staleOnly.send({ type: 'filter.change', filters: { freshness: 'stale' } })
    await new Promise((r) => setTimeout(r, 0))
    staleOnly.send({ type: 'item.reviewed', item: reviewed })
    expect(staleOnly.getSnapshot().context.count).toBe(1)
  })
})
