import { assign, fromPromise, setup } from 'xstate'
import { MY_WORK_TEXTS, type MyAssignments } from '../../contract/collaboration.ts'
import { errorMessage } from '../../contract/errors.ts'
import type { ReviewState } from '../../contract/work.ts'
import { mustBeProvidedIn } from '../actors.ts'

/**
 * My work (issue 29): everything assigned to the signed-in person across questionnaires, still to
 * do, grouped by due date. Read when the app opens and again on `refresh` (a page opened, a new
 * notification); what was read stays on screen while it is read again.
 */

/** Which of my questions show (issue 39): all, or those in one review state. */
export type MyWorkFilter = 'all' | ReviewState

export interface MyWorkContext {
  work: MyAssignments | null
  error: string | null
  filter: MyWorkFilter
  /** The questionnaires of a due group shown whole (`${group}:${questionnaireId}`). */
  expanded: string[]
}

export type MyWorkEvents =
  | { type: 'refresh' }
  | { type: 'filter.set'; filter: MyWorkFilter }
  | { type: 'expand'; key: string }
  | { type: 'collapse'; key: string }

export const myWorkMachine = setup({
  types: {
    context: {} as MyWorkContext,
    events: {} as MyWorkEvents,
  },
  actors: {
    loadMyWork: fromPromise<MyAssignments, void>(mustBeProvidedIn('myWorkMachine')('loadMyWork')),
  },
}).createMachine({
  id: 'myWork',
  context: { work: null, error: null, filter: 'all', expanded: [] },
  initial: 'loading',
  // what is shown is the person's choice, whatever the read is doing
  on: {
    'filter.set': { actions: assign({ filter: ({ event }) => event.filter }) },
    expand: {
      actions: assign({
        expanded: ({ context, event }) => [
          ...context.expanded.filter((key) => key !== event.key),
          event.key,
        ],
      }),
    },
    collapse: {
      actions: assign({
        expanded: ({ context, event }) => context.expanded.filter((key) => key !== event.key),
      }),
    },
  },
  states: {
    loading: {
      description: 'Reading the assignments; the last ones read stay shown meanwhile.',
      tags: 'loading',
      // asked again while reading: the read under way answers it
      on: { refresh: {} },
      invoke: {
        src: 'loadMyWork',
        onDone: {
          target: 'ready',
          actions: assign(({ event }) => ({ work: event.output, error: null })),
        },
        onError: {
          target: 'failed',
          actions: assign(({ event }) => ({
            error: errorMessage(event.error, MY_WORK_TEXTS.failed),
          })),
        },
      },
    },
    ready: { on: { refresh: 'loading' } },
    failed: { on: { refresh: 'loading' } },
  },
})
