import { assign, fromPromise, raise, setup } from 'xstate'
import { errorMessage } from '../../contract/errors.ts'
import type { FileDetails, FilePassage } from '../../contract/file-page.ts'
import type { Paged } from '../../contract/paging.ts'
import { mustBeProvidedIn } from '../actors.ts'
import { FILE_PAGE_POLL_MS } from '../constants.ts'

/**
 * A file's page (issue 30), in two regions. `file`: the file with its status history, versions and
 * what cites it; while the file is queued or processing it is asked for again after a pause, so
 * that its status and history move. `read`: what was read from it, a page at a time; it loads
 * again when the file becomes ready. A failed load says why and can be retried.
 */

export const PASSAGES_PAGE_SIZE = 20

export interface FilePageContext {
  id: number
  details: FileDetails | null
  error: string | null
  passages: FilePassage[]
  count: number
  page: number
  readError: string | null
  /** The document's page a cited source opens at (issue 30): the list opens there, marked. */
  citedPage: number | null
  /** The cited words (issue 39): the passage holding them is marked and brought into view. */
  citedQuote: string | null
  /** Whether the list has yet to be opened at the cited page. */
  seekCited: boolean
}

export type FilePageEvents =
  | { type: 'retry' }
  | { type: 'page.change'; page: number }
  /** Raised when the file has just become ready: what was read changed. */
  | { type: 'read.reload' }

export interface PassagesInput {
  id: number
  page: number
  page_size: number
  /** Open the list at this page of the document. */
  at_page?: number
}

const mustBeProvided = mustBeProvidedIn('filePageMachine')

const moving = (details: FileDetails | null) =>
  details?.file.status === 'queued' || details?.file.status === 'processing'

export const filePageMachine = setup({
  types: {
    context: {} as FilePageContext,
    events: {} as FilePageEvents,
    input: {} as { id: number; citedPage?: number | null; citedQuote?: string | null },
  },
  actors: {
    loadDetails: fromPromise<FileDetails, { id: number }>(mustBeProvided('loadDetails')),
    loadPassages: fromPromise<Paged<FilePassage> & { page?: number }, PassagesInput>(
      mustBeProvided('loadPassages'),
    ),
  },
  delays: { poll: FILE_PAGE_POLL_MS },
  guards: {
    /** The file is still queued or processing: watch it. */
    stillMoving: (_, details: FileDetails) => moving(details),
    /** It was moving and is now settled: what was read is new. */
    justSettled: ({ context }, details: FileDetails) => moving(context.details) && !moving(details),
  },
  actions: {
    setDetails: assign((_, details: FileDetails) => ({ details, error: null })),
    setError: assign((_, error: unknown) => ({
      error: errorMessage(error, 'This file could not be loaded.'),
    })),
    setPage: assign((_, page: number) => ({ page: Math.max(1, page) })),
    setPassages: assign(({ context }, output: Paged<FilePassage> & { page?: number }) => ({
      passages: output.results,
      count: output.count,
      page: output.page ?? context.page,
      seekCited: false,
      readError: null,
    })),
    setReadError: assign((_, error: unknown) => ({
      readError: errorMessage(error, 'What was read from this file could not be loaded.'),
    })),
    reloadRead: raise({ type: 'read.reload' }),
  },
}).createMachine({
  id: 'filePage',
  context: ({ input }) => ({
    id: input.id,
    details: null,
    error: null,
    passages: [],
    count: 0,
    page: 1,
    readError: null,
    citedPage: input.citedPage ?? null,
    citedQuote: input.citedQuote?.trim() || null,
    seekCited: Boolean(input.citedPage),
  }),
  type: 'parallel',
  states: {
    file: {
      initial: 'loading',
      states: {
        loading: {
          tags: 'loading',
          invoke: {
            src: 'loadDetails',
            input: ({ context }) => ({ id: context.id }),
            onDone: [
              {
                guard: { type: 'stillMoving', params: ({ event }) => event.output },
                target: 'watching',
                actions: { type: 'setDetails', params: ({ event }) => event.output },
              },
              {
                guard: { type: 'justSettled', params: ({ event }) => event.output },
                target: 'ready',
                actions: [
                  { type: 'setDetails', params: ({ event }) => event.output },
                  'reloadRead',
                ],
              },
              {
                target: 'ready',
                actions: { type: 'setDetails', params: ({ event }) => event.output },
              },
            ],
            onError: {
              target: 'failed',
              actions: {
                type: 'setError',
                params: ({ event }: { event: { error: unknown } }) => event.error,
              },
            },
          },
        },
        watching: {
          description: 'The file is queued or processing: ask for it again after a pause.',
          after: { poll: 'loading' },
        },
        ready: {},
        failed: { on: { retry: 'loading' } },
      },
    },
    read: {
      initial: 'loading',
      on: {
        'page.change': {
          target: '.loading',
          actions: { type: 'setPage', params: ({ event }) => event.page },
        },
        'read.reload': '.loading',
      },
      states: {
        loading: {
          tags: 'reading',
          invoke: {
            src: 'loadPassages',
            input: ({ context }) => ({
              id: context.id,
              page: context.page,
              page_size: PASSAGES_PAGE_SIZE,
              ...(context.seekCited && context.citedPage ? { at_page: context.citedPage } : {}),
            }),
            onDone: {
              target: 'ready',
              actions: { type: 'setPassages', params: ({ event }) => event.output },
            },
            onError: {
              target: 'failed',
              actions: {
                type: 'setReadError',
                params: ({ event }: { event: { error: unknown } }) => event.error,
              },
            },
          },
        },
        ready: {},
        failed: { on: { retry: 'loading' } },
      },
    },
  },
})
