import { assign, fromPromise, setup } from 'xstate'
import { errorMessage } from '../../contract/errors.ts'
import { KNOWLEDGE_TEXTS, type SearchResult } from '../../contract/knowledge.ts'
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

const errorOf = (error: unknown) => errorMessage(error, KNOWLEDGE_TEXTS.searchFailed)

export const kbSearchMachine = setup({
  types: { context: {} as KbSearchContext, events: {} as KbSearchEvents },
  actors: { search: fromPromise<SearchResult[], { q: string }>(mustBeProvided('search')) },
  delays: { debounce: KB_SEARCH_DEBOUNCE_MS },
  guards: { isBlank: (_, q: string) => !q.trim() },
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
      {
        guard: { type: 'isBlank', params: ({ event }) => event.q },
        target: '.idle',
        actions: 'reset',
      },
      {
        target: '.debouncing',
        reenter: true,
        actions: { type: 'setQuery', params: ({ event }) => event.q },
      },
    ],
    clear: { target: '.idle', actions: 'reset' },
  },
  states: {
    idle: { description: 'The box is empty: no results.' },
    debouncing: {
      description: 'Typing: the search starts after a pause of KB_SEARCH_DEBOUNCE_MS.',
      after: { debounce: 'searching' },
    },
    searching: {
      description: 'Searches for the text; a new keystroke starts over.',
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
    shown: { description: "The results, or 'Search failed. Please try again.'" },
  },
})
