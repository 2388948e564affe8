import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { SearchResult } from '../../contract/knowledge.ts'
import { KB_SEARCH_DEBOUNCE_MS } from '../../machines/constants.ts'
import * as view from '../../machines/kb-search/index.ts'
import { kbSearchMachine } from '../../machines/kb-search/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const pending = pendingActors(kbSearchMachine)
const events: AnyEventObject[] = [
  { type: 'query.change', q: 'encryption' },
  { type: 'query.change', q: '  ' },
  { type: 'clear' },
  { type: 'xstate.done.actor.0.kbSearch.searching', output: [] },
  { type: 'xstate.error.actor.0.kbSearch.searching', error: new Error('Search failed') },
]

describe('kbSearchMachine', () => {
  testEveryPath(pending, events, {
    view,
    title: 'every state and transition is reached; the debounce fires at its value and not before',
    identity: (s) => [Boolean(s.context.q), Boolean(s.context.error)],
  })

  test('searches once after a pause in typing', async () => {
    const queries: string[] = []
    const actor = createActor(
      kbSearchMachine.provide({
        actors: {
          search: fromPromise<SearchResult[], { q: string }>(async ({ input }) => {
            queries.push(input.q)
            return []
          }),
        },
        delays: { debounce: 5 },
      }),
    ).start()
    actor.send({ type: 'query.change', q: 'enc' })
    actor.send({ type: 'query.change', q: 'encryption' })
    await new Promise((r) => setTimeout(r, 30))
    expect(queries).toEqual(['encryption'])
    expect(actor.getSnapshot().value).toBe('shown')
    expect(KB_SEARCH_DEBOUNCE_MS).toBe(250)
  })
})
