import { assign, fromPromise, setup } from 'xstate'
import { errorMessage } from '../../contract/errors.ts'
import type { Freshness } from '../../contract/freshness.ts'
import type { QaItem } from '../../contract/knowledge.ts'
import { mustBeProvidedIn } from '../actors.ts'
import { LIST_SEARCH_DEBOUNCE_MS } from '../constants.ts'
import { searched, thrownBy } from '../shared-actions.ts'

/**
 * A paged, searchable list of knowledge-base entries (Q&A items, data items or ready files):
 * typing waits for a pause, paging, filtering and refreshing load at once, a failed load can be
 * retried. Q&A items filter by freshness and owner; the review queue lists the caller's answers
 * that are due or stale, soonest due first. A reviewed item takes its row's place at once (and
 * leaves a list it no longer belongs to).
 */

/** Q&A items, data items, ready files, or the rows of completed questionnaires ('answered'). */
export type ItemListKind = 'qa' | 'data' | 'files' | 'answered'

/** Q&A items by owner: the caller's, nobody's, or anyone's (null). */
export type OwnerFilter = 'me' | 'none'

export interface ItemListFilters {
  freshness: Freshness | null
  owner: OwnerFilter | null
  /** Q&A items by product (issue 38): a product's id, 'none' for company-wide ones, null: any. */
  product: number | 'none' | null
}

export interface ItemListQuery extends ItemListFilters {
  kind: ItemListKind
  page: number
  page_size: number
  q: string
  /** The review queue: the caller's due and stale Q&A items, soonest due first. */
  queue: boolean
  /** One entry by its id (a chat's citation opens it); null: all. */
  id: number | null
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
  | { type: 'filter.change'; filters: Partial<ItemListFilters> }
  | { type: 'item.reviewed'; item: QaItem }

const mustBeProvided = mustBeProvidedIn('itemListMachine')

const errorOf = (error: unknown) => errorMessage(error, 'The list could not be loaded.')

export const itemListMachine = setup({
  types: {
    context: {} as ItemListContext,
    events: {} as ItemListEvents,
    input: {} as {
      kind: ItemListKind
      queue?: boolean
      freshness?: Freshness | null
      id?: number | null
    },
  },
  actors: {
    loadItems: fromPromise<{ count: number; results: unknown[] }, ItemListQuery>(
      mustBeProvided('loadItems'),
    ),
  },
  delays: { searchDebounce: LIST_SEARCH_DEBOUNCE_MS },
  actions: {
    setSearch: assign(({ context, event }) => searched(context.query, event)),
    setPage: assign(({ context }, page: number) => ({
      query: { ...context.query, page: Math.max(1, page) },
    })),
    setFilters: assign(({ context }, filters: Partial<ItemListFilters>) => ({
      query: { ...context.query, ...filters, page: 1 },
    })),
    replaceItem: assign(({ context }, item: QaItem) => {
      const { query } = context
      const stays = !query.queue
        ? query.freshness === null || query.freshness === item.freshness
        : item.freshness !== 'fresh'
      const results = context.results as { id: number }[]
      if (!results.some((row) => row.id === item.id)) return {}
      return stays
        ? { results: results.map((row) => (row.id === item.id ? item : row)) }
        : {
            results: results.filter((row) => row.id !== item.id),
            count: Math.max(0, context.count - 1),
          }
    }),
    setItems: assign((_, output: { count: number; results: unknown[] }) => ({
      count: output.count,
      results: output.results,
      error: null,
    })),
    setError: assign(({ event }) => ({ error: errorOf(thrownBy(event)) })),
  },
}).createMachine({
  id: 'itemList',
  context: ({ input }) => ({
    query: {
      kind: input.kind,
      page: 1,
      page_size: 25,
      q: '',
      freshness: input.freshness ?? null,
      owner: null,
      product: null,
      queue: input.queue ?? false,
      id: input.id ?? null,
    },
    count: 0,
    results: [],
    error: null,
  }),
  initial: 'loading',
  on: {
    'search.change': { target: '.typing', reenter: true, actions: 'setSearch' },
    'page.change': {
      target: '.loading',
      actions: { type: 'setPage', params: ({ event }) => event.page },
    },
    refresh: '.loading',
    'filter.change': {
      target: '.loading',
      actions: { type: 'setFilters', params: ({ event }) => event.filters },
    },
    'item.reviewed': { actions: { type: 'replaceItem', params: ({ event }) => event.item } },
  },
  states: {
    typing: {
      description: 'The search text changed: wait for a pause in typing before listing.',
      after: { searchDebounce: 'loading' },
    },
    loading: {
      description: 'The page of items the search, filters and page ask for is read.',
      tags: 'loading',
      invoke: {
        src: 'loadItems',
        input: ({ context }) => context.query,
        onDone: {
          target: 'ready',
          actions: { type: 'setItems', params: ({ event }) => event.output },
        },
        onError: { target: 'failed', actions: 'setError' },
      },
    },
    ready: { description: 'The items of the page.' },
    failed: { description: 'The items could not be read: the error, and Try again.' },
  },
})
