import { assign, emit, fromPromise, setup } from 'xstate'
import { COLLABORATION_TEXTS, type WorkUpdate } from '../../contract/collaboration.ts'
import { errorMessage } from '../../contract/errors.ts'
import type { Questionnaire } from '../../contract/questionnaires.ts'
import { mustBeProvidedIn } from '../actors.ts'
import { checkWork, valuesOf, type WorkField, type WorkValues, workChanges } from './work-values.ts'

/**
 * The work details of one questionnaire (issue 29), in a dialog: its owner, customer (one the
 * organisation keeps, or a new one by name), requester, due date and status. The fields are
 * checked with the contract's rules; only what changed is sent; nothing changed closes it.
 */

export interface WorkDetailsContext {
  questionnaire: Questionnaire | null
  initial: WorkValues
  values: WorkValues
  errors: Partial<Record<WorkField, string>>
  failure: string | null
}

export type WorkDetailsEvents =
  | { type: 'open'; questionnaire: Questionnaire }
  | { type: 'change'; field: WorkField; value: string }
  | { type: 'submit' }
  | { type: 'close' }

export type WorkDetailsEmitted = { type: 'saved'; questionnaire: Questionnaire }

export interface SaveWorkInput {
  id: number
  body: WorkUpdate
}

const BLANK: WorkValues = {
  owner_id: '',
  customer: '',
  customer_name: '',
  requester: '',
  due_date: '',
  work_status: 'drafting',
}

const mustBeProvided = mustBeProvidedIn('workDetailsMachine')

export const workDetailsMachine = setup({
  types: {
    context: {} as WorkDetailsContext,
    events: {} as WorkDetailsEvents,
    emitted: {} as WorkDetailsEmitted,
  },
  actors: {
    saveWork: fromPromise<Questionnaire, SaveWorkInput>(mustBeProvided('saveWork')),
  },
  guards: {
    isValid: ({ context }) => Object.keys(checkWork(context.initial, context.values)).length === 0,
    unchanged: ({ context }) =>
      Object.keys(workChanges(context.initial, context.values)).length === 0,
  },
  actions: {
    start: assign((_, questionnaire: Questionnaire) => ({
      questionnaire,
      initial: valuesOf(questionnaire),
      values: valuesOf(questionnaire),
      errors: {},
      failure: null,
    })),
    change: assign(({ context }, params: { field: WorkField; value: string }) => ({
      values: { ...context.values, [params.field]: params.value },
      errors: { ...context.errors, [params.field]: undefined },
    })),
    showErrors: assign(({ context }) => ({ errors: checkWork(context.initial, context.values) })),
  },
}).createMachine({
  id: 'workDetails',
  context: { questionnaire: null, initial: BLANK, values: BLANK, errors: {}, failure: null },
  initial: 'closed',
  states: {
    closed: {
      description: 'No dialog; a row’s "Work details" opens it on that questionnaire.',
      on: {
        open: {
          target: 'editing',
          actions: { type: 'start', params: ({ event }) => event.questionnaire },
        },
      },
    },
    editing: {
      description: 'The fields, as typed; errors show after a submit.',
      on: {
        close: 'closed',
        change: { actions: { type: 'change', params: ({ event }) => event } },
        submit: [
          { guard: 'unchanged', target: 'closed' },
          { guard: 'isValid', target: 'saving' },
          { actions: 'showErrors' },
        ],
      },
    },
    saving: {
      description: 'The changes are sent; the dialog stays until the server answers.',
      tags: 'loading',
      entry: assign({ failure: null }),
      invoke: {
        src: 'saveWork',
        input: ({ context }) => ({
          id: context.questionnaire?.id ?? 0,
          body: workChanges(context.initial, context.values),
        }),
        onDone: {
          target: 'closed',
          actions: emit(({ event }) => ({ type: 'saved' as const, questionnaire: event.output })),
        },
        onError: {
          target: 'editing',
          actions: assign(({ event }) => ({
            failure: errorMessage(event.error, COLLABORATION_TEXTS.workSaveFailed),
          })),
        },
      },
    },
  },
})
