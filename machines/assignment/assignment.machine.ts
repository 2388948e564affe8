import { assign, emit, fromPromise, setup } from 'xstate'
import {
  type AssignRequest,
  COLLABORATION_TEXTS,
  type Person,
} from '../../contract/collaboration.ts'
import { errorMessage } from '../../contract/errors.ts'
import { mustBeProvidedIn } from '../actors.ts'
import type { AssignmentContext, AssignmentEmitted, AssignmentEvents } from './assignment.types.ts'

/**
 * Assigning questions (issue 29): the dialog opens on a scope (the focused question, the tab, the
 * questions matching the filter, or all), loads the people who may be assigned, takes a person
 * (or none, to unassign) and an optional due date, and sends one call however many questions.
 */

const mustBeProvided = mustBeProvidedIn('assignmentMachine')

/** The call's body for the scope chosen. */
export function requestOf(context: AssignmentContext): AssignRequest {
  const { target, scope } = context
  return {
    assignee_id: context.assigneeId,
    ...(scope === 'question' && target.questionId ? { question_ids: [target.questionId] } : {}),
    ...(scope === 'tab' && target.tabId ? { tab_id: target.tabId } : {}),
    ...(scope === 'filter' && target.filter !== 'all'
      ? { filter: target.filter, ...(target.tabId ? { tab_id: target.tabId } : {}) }
      : {}),
    ...(context.assigneeId !== null && context.dueDate ? { due_date: context.dueDate } : {}),
  }
}

export const assignmentMachine = setup({
  types: {
    context: {} as AssignmentContext,
    events: {} as AssignmentEvents,
    input: {} as { questionnaireId: number },
    emitted: {} as AssignmentEmitted,
  },
  actors: {
    loadPeople: fromPromise<Person[], void>(mustBeProvided('loadPeople')),
    assign: fromPromise<number, { questionnaireId: number; request: AssignRequest }>(
      mustBeProvided('assign'),
    ),
  },
}).createMachine({
  id: 'assignment',
  context: ({ input }) => ({
    questionnaireId: input.questionnaireId,
    target: { questionId: null, tabId: null, filter: 'all' },
    scope: 'question',
    people: [],
    assigneeId: null,
    dueDate: '',
    error: null,
  }),
  initial: 'closed',
  states: {
    closed: {
      on: {
        open: {
          target: 'loading',
          actions: assign(({ event }) => ({
            target: event.target,
            scope: event.scope,
            error: null,
          })),
        },
      },
    },
    loading: {
      invoke: {
        src: 'loadPeople',
        onDone: {
          target: 'open',
          actions: assign(({ event }) => ({
            people: event.output.filter((person) => person.assignable),
          })),
        },
        onError: {
          target: 'failed',
          actions: assign(({ event }) => ({
            error: errorMessage(event.error, COLLABORATION_TEXTS.assignPeopleFailed),
          })),
        },
      },
      on: { close: 'closed' },
    },
    failed: { on: { retry: 'loading', close: 'closed' } },
    open: {
      on: {
        'scope.set': { actions: assign(({ event }) => ({ scope: event.scope })) },
        'person.set': { actions: assign(({ event }) => ({ assigneeId: event.assigneeId })) },
        'due.set': { actions: assign(({ event }) => ({ dueDate: event.dueDate })) },
        submit: { target: 'saving', actions: assign({ error: null }) },
        close: 'closed',
      },
    },
    saving: {
      invoke: {
        src: 'assign',
        input: ({ context }) => ({
          questionnaireId: context.questionnaireId,
          request: requestOf(context),
        }),
        onDone: {
          target: 'closed',
          actions: emit(({ context, event }) => ({
            type: 'assigned' as const,
            count: event.output,
            unassigned: context.assigneeId === null,
          })),
        },
        onError: {
          target: 'open',
          actions: assign(({ event }) => ({
            error: errorMessage(event.error, COLLABORATION_TEXTS.assignFailed),
          })),
        },
      },
    },
  },
})
