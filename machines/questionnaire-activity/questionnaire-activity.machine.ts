import { assign, fromPromise, setup } from 'xstate'
import type { Activity } from '../../contract/collaboration.ts'
import { errorMessage } from '../../contract/errors.ts'
import { QUESTIONNAIRE_TEXTS } from '../../contract/questionnaires.ts'
import { mustBeProvidedIn } from '../actors.ts'

/**
 * A questionnaire's activity (issue 29): who assigned, answered, commented, approved and exported
 * what, and when; read when the history opens, and again on request.
 */

export interface ActivityContext {
  id: number
  entries: Activity[]
  error: string | null
}

export type ActivityEvents = { type: 'load' }

const mustBeProvided = mustBeProvidedIn('questionnaireActivityMachine')

export const questionnaireActivityMachine = setup({
  types: {
    context: {} as ActivityContext,
    events: {} as ActivityEvents,
    input: {} as { id: number },
  },
  actors: {
    loadActivity: fromPromise<Activity[], { id: number }>(mustBeProvided('loadActivity')),
  },
}).createMachine({
  id: 'questionnaireActivity',
  context: ({ input }) => ({ id: input.id, entries: [], error: null }),
  initial: 'idle',
  states: {
    idle: { on: { load: 'loading' } },
    loading: {
      invoke: {
        src: 'loadActivity',
        input: ({ context }) => ({ id: context.id }),
        onDone: {
          target: 'loaded',
          actions: assign(({ event }) => ({ entries: event.output, error: null })),
        },
        onError: {
          target: 'loaded',
          actions: assign(({ event }) => ({
            error: errorMessage(event.error, QUESTIONNAIRE_TEXTS.activityFailed),
          })),
        },
      },
    },
    loaded: { on: { load: 'loading' } },
  },
})
