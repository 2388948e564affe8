import { assign, emit, enqueueActions, fromPromise, setup } from 'xstate'
import {
  type AssignRequest,
  COLLABORATION_TEXTS,
  type Person,
} from '../../contract/collaboration.ts'
import { errorMessage } from '../../contract/errors.ts'
import { mustBeProvidedIn } from '../actors.ts'
import type {
  AssignmentContext,
  AssignmentEmitted,
  AssignmentEvents,
  AssignScope,
  AssignTarget,
} from './assignment.types.ts'

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

const errorOf = ({ event }: { event: { error: unknown } }) => event.error

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
  actions: {
    start: assign((_, opened: { target: AssignTarget; scope: AssignScope }) => ({
      target: opened.target,
      scope: opened.scope,
      error: null,
    })),
    setPeople: assign((_, people: Person[]) => ({
      people: people.filter((person) => person.assignable),
    })),
    showPeopleError: assign((_, error: unknown) => ({
      error: errorMessage(error, COLLABORATION_TEXTS.assignPeopleFailed),
    })),
    setScope: assign((_, scope: AssignScope) => ({ scope })),
    setPerson: assign((_, assigneeId: number | null) => ({ assigneeId })),
    setDue: assign((_, dueDate: string) => ({ dueDate })),
    clearError: assign({ error: null }),
    announce: emit(({ context }, count: number) => ({
      type: 'assigned' as const,
      count,
      unassigned: context.assigneeId === null,
    })),
    /** The workspace that runs it says so (alone, as in its path test, nobody is told). */
    tellParent: enqueueActions(({ context, self, enqueue }, count: number) => {
      if (self._parent)
        enqueue.sendParent({
          type: 'assignment.done',
          count,
          unassigned: context.assigneeId === null,
        })
    }),
    showError: assign((_, error: unknown) => ({
      error: errorMessage(error, COLLABORATION_TEXTS.assignFailed),
    })),
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
      description: 'No dialog.',
      on: { open: { target: 'loading', actions: { type: 'start', params: ({ event }) => event } } },
    },
    loading: {
      description: 'The people who may be assigned are read.',
      invoke: {
        src: 'loadPeople',
        onDone: {
          target: 'open',
          actions: { type: 'setPeople', params: ({ event }) => event.output },
        },
        onError: { target: 'failed', actions: { type: 'showPeopleError', params: errorOf } },
      },
      on: { close: 'closed' },
    },
    failed: {
      description: 'The people could not be read: says why, and Retry.',
      on: { retry: 'loading', close: 'closed' },
    },
    open: {
      description: 'The scope, the person (or none, to unassign) and an optional due date.',
      on: {
        'scope.set': { actions: { type: 'setScope', params: ({ event }) => event.scope } },
        'person.set': { actions: { type: 'setPerson', params: ({ event }) => event.assigneeId } },
        'due.set': { actions: { type: 'setDue', params: ({ event }) => event.dueDate } },
        submit: { target: 'saving', actions: 'clearError' },
        close: 'closed',
      },
    },
    saving: {
      description: 'One call assigns every question of the scope.',
      invoke: {
        src: 'assign',
        input: ({ context }) => ({
          questionnaireId: context.questionnaireId,
          request: requestOf(context),
        }),
        onDone: {
          target: 'closed',
          actions: [
            { type: 'announce', params: ({ event }) => event.output },
            { type: 'tellParent', params: ({ event }) => event.output },
          ],
        },
        onError: { target: 'open', actions: { type: 'showError', params: errorOf } },
      },
    },
  },
})
