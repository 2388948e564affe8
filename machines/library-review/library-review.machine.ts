import { assign, emit, fromPromise, setup } from 'xstate'
import { errorMessage } from '../../contract/errors.ts'
import { KNOWLEDGE_TEXTS, type QaItem } from '../../contract/knowledge.ts'
import { mustBeProvidedIn } from '../actors.ts'

/**
 * The review of a library answer (issue 28): its owner, or someone who manages the library,
 * confirms it is still true today. One item at a time: confirming it calls the server, which
 * answers with the item as it now is (fresh, reviewed today); a refusal or failure is kept in plain
 * words until the next confirmation or until it is dismissed. Editing and retiring an item go
 * through the item editor.
 */

export interface LibraryReviewContext {
  /** The item being (or last) confirmed. */
  item: QaItem | null
  /** The item as the server returned it once confirmed. */
  reviewed: QaItem | null
  error: string | null
}

export type LibraryReviewEvents = { type: 'confirm'; item: QaItem } | { type: 'dismiss' }

export type LibraryReviewEmitted =
  | { type: 'reviewed'; item: QaItem }
  | { type: 'failed'; item: QaItem; error: string }

const mustBeProvided = mustBeProvidedIn('libraryReviewMachine')

const errorOf = (error: unknown) => errorMessage(error, KNOWLEDGE_TEXTS.reviewFailed)

export const libraryReviewMachine = setup({
  types: {
    context: {} as LibraryReviewContext,
    events: {} as LibraryReviewEvents,
    emitted: {} as LibraryReviewEmitted,
  },
  actors: {
    markReviewed: fromPromise<QaItem, { id: number }>(mustBeProvided('markReviewed')),
  },
  actions: {
    start: assign((_, item: QaItem) => ({ item, error: null })),
    setReviewed: assign((_, item: QaItem) => ({ reviewed: item, error: null })),
    setError: assign((_, error: unknown) => ({ error: errorOf(error) })),
    clearError: assign({ error: null }),
    announceReviewed: emit((_, item: QaItem) => ({ type: 'reviewed' as const, item })),
    announceFailed: emit(({ context }) => ({
      type: 'failed' as const,
      item: context.item as QaItem,
      error: context.error ?? errorOf(null),
    })),
  },
}).createMachine({
  id: 'libraryReview',
  context: { item: null, reviewed: null, error: null },
  initial: 'idle',
  on: {
    confirm: {
      target: '.confirming',
      actions: { type: 'start', params: ({ event }) => event.item },
    },
  },
  states: {
    idle: {},
    confirming: {
      tags: 'busy',
      // one confirmation at a time: another waits for this one
      on: { confirm: {} },
      invoke: {
        src: 'markReviewed',
        input: ({ context }) => ({ id: context.item?.id ?? 0 }),
        onDone: {
          target: 'confirmed',
          actions: [
            { type: 'setReviewed', params: ({ event }) => event.output },
            { type: 'announceReviewed', params: ({ event }) => event.output },
          ],
        },
        onError: {
          target: 'failed',
          actions: [
            { type: 'setError', params: ({ event }: { event: { error: unknown } }) => event.error },
            'announceFailed',
          ],
        },
      },
    },
    confirmed: {},
    failed: { on: { dismiss: { target: 'idle', actions: 'clearError' } } },
  },
})
