import { assign, fromPromise, raise, setup } from 'xstate'
import { errorMessage } from '../../contract/errors.ts'
import type { FileDetails, FilePassage } from '../../contract/file-page.ts'
import { KNOWLEDGE_TEXTS } from '../../contract/knowledge.ts'
import type { Paged } from '../../contract/paging.ts'
import { mustBeProvidedIn } from '../actors.ts'
import { FILE_PAGE_POLL_MS } from '../constants.ts'
import type { FilePageSchema, PassagesInput } from './file-page.types.ts'

/**
 * A file's page (issue 30), in two regions. `file`: the file with its status history, versions and
 * what cites it; while the file is queued or processing it is asked for again after a pause, so
 * that its status and history move. `read`: what was read from it, a page at a time; it loads
 * again when the file becomes ready. A failed load says why and can be retried.
 */

export const PASSAGES_PAGE_SIZE = 20

const mustBeProvided = mustBeProvidedIn('filePageMachine')

const moving = (details: FileDetails | null) =>
  details?.file.status === 'queued' || details?.file.status === 'processing'

export const filePageMachine = setup({
  types: {} as FilePageSchema,
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
      error: errorMessage(error, KNOWLEDGE_TEXTS.fileLoadFailed),
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
      readError: errorMessage(error, KNOWLEDGE_TEXTS.fileReadFailed),
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
      description: 'The file with its status history, versions and what cites it.',
      initial: 'loading',
      states: {
        loading: {
          description: 'The file is read; one that just settled has what was read loaded again.',
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
        ready: { description: 'The file is shown; it is ready or failed, and no longer moves.' },
        failed: {
          description: "'This file could not be loaded.' (or the server's words), and Retry.",
          on: { retry: 'loading' },
        },
      },
    },
    read: {
      description: 'What was read from the file, a page at a time.',
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
          description: 'A page of passages; the first load opens at the cited page, if any.',
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
        ready: { description: 'The page of passages, the cited words marked.' },
        failed: {
          description: "'What was read from this file could not be loaded.', and Retry.",
          on: { retry: 'loading' },
        },
      },
    },
  },
})
