import { assign, fromPromise, setup } from 'xstate'
import { errorMessage } from '../../contract/errors.ts'
import type { SearchResult } from '../../contract/knowledge.ts'
import { mustBeProvidedIn } from '../actors.ts'
import { KB_SEARCH_DEBOUNCE_MS } from '../constants.ts'

/**
 * Search across the knowledge base as the user types: a pause in typing starts the search; a new
 * keystroke during a search starts over; an empty box clears the results.
 */

export interface KbSearchContext {
  q: string
  results: SearchResult[]
  error: string | null
}

export type KbSearchEvents = { type: 'query.change'; q: string } | { type: 'clear' }

const mustBeProvided = mustBeProvidedIn('kbSearchMachine')

const errorOf = (error: unknown) => errorMessage(error, 'Search failed. Please try again.')

export const kbSearchMachine = setup({
  types: { context: {} as KbSearchContext, events: {} as KbSearchEvents },
  actors: { search: fromPromise<SearchResult[], { q: string }>(mustBeProvided('search')) },
  delays: { debounce: KB_SEARCH_DEBOUNCE_MS },
  guards: { isBlank: ({ event }) => event.type === 'query.change' && !event.q.trim() },
  actions: {
    setQuery: assign((_, q: string) => ({ q })),
    reset: assign({ q: '', results: [], error: null }),
    setResults: assign((_, results: SearchResult[]) => ({ results, error: null })),
    setError: assign((_, error: unknown) => ({ error: errorOf(error), results: [] })),
  },
}).createMachine({
  id: 'kbSearch',
  context: { q: '', results: [], error: null },
  initial: 'idle',
  on: {
    'query.change': [
      { guard: 'isBlank', target: '.idle', actions: 'reset' },
      {
        target: '.debouncing',
        reenter: true,
        actions: { type: 'setQuery', params: ({ event }) => event.q },
      },
    ],
    clear: { target: '.idle', actions: 'reset' },
  },
  states: {
    idle: {},
    debouncing: { after: { debounce: 'searching' } },
    searching: {
      tags: 'loading',
      invoke: {
        src: 'search',
        input: ({ context }) => ({ q: context.q }),
        onDone: {
          target: 'shown',
          actions: { type: 'setResults', params: ({ event }) => event.output },
        },
        onError: {
          target: 'shown',
          actions: {
            type: 'setError',
            params: ({ event }: { event: { error: unknown } }) => event.error,
          },
        },
      },
    },
    shown: {},
  },
})
