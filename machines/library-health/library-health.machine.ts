import { assign, fromPromise, setup } from 'xstate'
import type { LibraryHealth } from '../../contract/questionnaires.ts'
import { mustBeProvidedIn } from '../actors.ts'

/**
 * Library upkeep on the Knowledge Base page: Q&A items that ask the same question, as duplicates
 * or as contradicting answers, loaded when the page opens and again after every change.
 */
export const libraryHealthMachine = setup({
  types: {
    context: {} as { health: LibraryHealth | null; error: string | null },
    events: {} as { type: 'refresh' } | { type: 'retry' },
  },
  actors: {
    loadHealth: fromPromise<LibraryHealth, void>(
      mustBeProvidedIn('libraryHealthMachine')('loadHealth'),
    ),
  },
}).createMachine({
  id: 'libraryHealth',
  context: { health: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadHealth',
        onDone: {
          target: 'ready',
          actions: assign(({ event }) => ({ health: event.output, error: null })),
        },
        onError: {
          target: 'failed',
          actions: assign(({ event }) => ({
            error:
              event.error instanceof Error && event.error.message
                ? event.error.message
                : 'Duplicates could not be checked',
          })),
        },
      },
    },
    ready: { on: { refresh: 'loading' } },
    failed: { on: { retry: 'loading', refresh: 'loading' } },
  },
})
