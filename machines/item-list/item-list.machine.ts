import { assign, fromPromise, setup } from 'xstate'
import { errorMessage } from '../../contract/errors.ts'
import { mustBeProvidedIn } from '../actors.ts'
import { LIST_SEARCH_DEBOUNCE_MS } from '../constants.ts'

/**
 * A paged, searchable list of knowledge-base entries (Q&A items, data items or ready files):
 * typing waits for a pause, paging and refreshing load at once, a failed load can be retried.
 */

/** Q&A items, data items, ready files, or the rows of completed questionnaires ('answered'). */
export type ItemListKind = 'qa' | 'data' | 'files' | 'answered'

export interface ItemListQuery {
  kind: ItemListKind
  page: number
  page_size: number
  q: string
}

export interface ItemListContext<T = unknown> {
  query: ItemListQuery
  count: number
  results: T[]
  error: string | null
}

export type ItemListEvents =
  | { type: 'search.change'; q: string }
  | { type: 'page.change'; page: number }
  | { type: 'refresh' }

const mustBeProvided = mustBeProvidedIn('itemListMachine')

const errorOf = (error: unknown) => errorMessage(error, 'The list could not be loaded.')

export const itemListMachine = setup({
  types: {
    context: {} as ItemListContext,
    events: {} as ItemListEvents,
    input: {} as { kind: ItemListKind },
  },
  actors: {
    loadItems: fromPromise<{ count: number; results: unknown[] }, ItemListQuery>(
      mustBeProvided('loadItems'),
    ),
  },
  delays: { searchDebounce: LIST_SEARCH_DEBOUNCE_MS },
  actions: {
    setSearch: assign(({ context }, q: string) => ({ query: { ...context.query, q, page: 1 } })),
    setPage: assign(({ context }, page: number) => ({
      query: { ...context.query, page: Math.max(1, page) },
    })),
    setItems: assign((_, output: { count: number; results: unknown[] }) => ({
      count: output.count,
      results: output.results,
      error: null,
    })),
    setError: assign((_, error: unknown) => ({ error: errorOf(error) })),
  },
}).createMachine({
  id: 'itemList',
  context: ({ input }) => ({
    query: { kind: input.kind, page: 1, page_size: 25, q: '' },
    count: 0,
    results: [],
    error: null,
  }),
  initial: 'loading',
  on: {
    'search.change': {
      target: '.typing',
      reenter: true,
      actions: { type: 'setSearch', params: ({ event }) => event.q },
    },
    'page.change': {
      target: '.loading',
      actions: { type: 'setPage', params: ({ event }) => event.page },
    },
    refresh: '.loading',
  },
  states: {
    typing: { after: { searchDebounce: 'loading' } },
    loading: {
      tags: 'loading',
      invoke: {
        src: 'loadItems',
        input: ({ context }) => context.query,
        onDone: {
          target: 'ready',
          actions: { type: 'setItems', params: ({ event }) => event.output },
        },
        onError: {
          target: 'failed',
          actions: {
            type: 'setError',
            params: ({ event }: { event: { error: unknown } }) => event.error,
          },
        },
      },
    },
    ready: {},
    failed: {},
  },
})
