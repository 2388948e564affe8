import { assign, fromPromise, setup } from 'xstate'
import { mustBeProvidedIn } from '../actors.ts'

/**
 * What the item editor offers for a Q&A item's owner and review cycle: the organisation's people
 * who may own an answer (null when the caller may not list them: the field then offers the caller,
 * the current owner and nobody) and the organisation's review cycle (null when it could not be
 * read). Loaded once with the page; a failed load can be retried.
 */

/** A person who may own an answer. */
export interface OwnerOption {
  id: number
  name: string
}

export interface OwnerChoices {
  people: OwnerOption[] | null
  reviewCycleDays: number | null
}

export type OwnerChoicesEvents = { type: 'retry' }

const mustBeProvided = mustBeProvidedIn('ownerChoicesMachine')

export const ownerChoicesMachine = setup({
  types: {
    context: {} as OwnerChoices,
    events: {} as OwnerChoicesEvents,
  },
  actors: {
    loadOwnerChoices: fromPromise<OwnerChoices, void>(mustBeProvided('loadOwnerChoices')),
  },
  actions: {
    setChoices: assign((_, choices: OwnerChoices) => choices),
  },
}).createMachine({
  id: 'ownerChoices',
  context: { people: null, reviewCycleDays: null },
  initial: 'loading',
  states: {
    loading: {
      tags: 'loading',
      invoke: {
        src: 'loadOwnerChoices',
        onDone: {
          target: 'ready',
          actions: { type: 'setChoices', params: ({ event }) => event.output },
        },
        onError: 'failed',
      },
    },
    ready: {},
    failed: { on: { retry: 'loading' } },
  },
})
