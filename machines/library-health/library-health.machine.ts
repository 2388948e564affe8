import { assign, fromPromise, setup } from 'xstate'
import { errorMessage } from '../../contract/errors.ts'
import { KNOWLEDGE_TEXTS } from '../../contract/knowledge.ts'
import type { LibraryHealth } from '../../contract/questionnaires.ts'
import { mustBeProvidedIn } from '../actors.ts'

/**
 * Library upkeep on the Knowledge Base page: its workload counted (stale, due, source changed,
 * conflicts) and the Q&A items that ask the same question, as duplicates or as contradicting
 * answers, loaded when the page opens and again after every change. The groups are shown or
 * hidden (`groups.toggle`); the conflicts count shows them (`groups.show`); the source-changed count
 * shows a note on where those answers are (`note.toggle`).
 */
export const libraryHealthMachine = setup({
  types: {
    context: {} as {
      health: LibraryHealth | null
      error: string | null
      open: boolean
      note: boolean
    },
    events: {} as
      | { type: 'refresh' }
      | { type: 'retry' }
      | { type: 'groups.toggle' }
      | { type: 'groups.show' }
      | { type: 'note.toggle' },
  },
  actors: {
    loadHealth: fromPromise<LibraryHealth, void>(
      mustBeProvidedIn('libraryHealthMachine')('loadHealth'),
    ),
  },
}).createMachine({
  id: 'libraryHealth',
  context: { health: null, error: null, open: false, note: false },
  initial: 'loading',
  on: {
    'groups.toggle': { actions: assign({ open: ({ context }) => !context.open }) },
    'groups.show': { actions: assign({ open: true }) },
    'note.toggle': { actions: assign({ note: ({ context }) => !context.note }) },
  },
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
            error: errorMessage(event.error, KNOWLEDGE_TEXTS.healthFailed),
          })),
        },
      },
    },
    ready: { on: { refresh: 'loading' } },
    failed: { on: { retry: 'loading', refresh: 'loading' } },
  },
})
