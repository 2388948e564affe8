import { assign, emit, enqueueActions, fromPromise, setup } from 'xstate'
import { errorMessage } from '../../contract/errors.ts'
import {
  type CarryForwardResponse,
  type PreviousMatch,
  QUESTIONNAIRE_TEXTS,
} from '../../contract/questionnaires.ts'
import { mustBeProvidedIn } from '../actors.ts'

/**
 * A questionnaire answered before (issue 28): once the workspace has read the questionnaire, the
 * earlier questionnaires it matches are looked up; when one is the same template, the workspace
 * offers to start from it. Accepting carries its approved answers forward (the server answers how
 * many were carried, changed, new and removed) and announces it, so that the workspace reloads its
 * answers; the result stays shown until dismissed. A failed look-up offers nothing; a failed carry
 * keeps the offer with the error and a retry.
 */

export interface CarryForwardContext {
  id: number
  /** The earlier questionnaire offered: the best same-template match. */
  match: PreviousMatch | null
  result: CarryForwardResponse | null
  error: string | null
}

export type CarryForwardEvents =
  /** The workspace has read the questionnaire; `carried`: it was already started from another. */
  { type: 'check'; carried: boolean } | { type: 'accept' } | { type: 'dismiss' } | { type: 'retry' }

export type CarryForwardEmitted = { type: 'carried'; result: CarryForwardResponse }

const mustBeProvided = mustBeProvidedIn('carryForwardMachine')

/** The earlier questionnaire worth offering: the best-scored one of the same template. */
export const offeredMatch = (matches: PreviousMatch[]) =>
  matches
    .filter((match) => match.same_template)
    .reduce<PreviousMatch | null>(
      (best, match) => (best && best.score >= match.score ? best : match),
      null,
    )

export const carryForwardMachine = setup({
  types: {
    context: {} as CarryForwardContext,
    events: {} as CarryForwardEvents,
    input: {} as { id: number },
    emitted: {} as CarryForwardEmitted,
  },
  actors: {
    loadPrevious: fromPromise<PreviousMatch[], { id: number }>(mustBeProvided('loadPrevious')),
    carryForward: fromPromise<CarryForwardResponse, { id: number; fromId: number }>(
      mustBeProvided('carryForward'),
    ),
  },
  guards: {
    notCarried: (_, carried: boolean) => !carried,
    hasMatch: (_, matches: PreviousMatch[]) => offeredMatch(matches) !== null,
  },
  actions: {
    offer: assign((_, matches: PreviousMatch[]) => ({ match: offeredMatch(matches) })),
    clearError: assign({ error: null }),
    setResult: assign((_, result: CarryForwardResponse) => ({ result, error: null })),
    announce: emit((_, result: CarryForwardResponse) => ({ type: 'carried' as const, result })),
    /** The workspace that runs it reads every answer again (alone, as in its path test, none). */
    tellParent: enqueueActions(({ self, enqueue }) => {
      if (self._parent) enqueue.sendParent({ type: 'carry.done' })
    }),
    showError: assign((_, error: unknown) => ({
      error: errorMessage(error, QUESTIONNAIRE_TEXTS.carryFailed),
    })),
  },
}).createMachine({
  id: 'carryForward',
  context: ({ input }) => ({ id: input.id, match: null, result: null, error: null }),
  initial: 'waiting',
  states: {
    waiting: {
      description: 'Until the workspace has read the questionnaire.',
      on: {
        check: [
          {
            guard: { type: 'notCarried', params: ({ event }) => event.carried },
            target: 'looking',
          },
          { target: 'none' },
        ],
      },
    },
    looking: {
      description: 'The earlier questionnaires this one matches are looked up.',
      invoke: {
        src: 'loadPrevious',
        input: ({ context }) => ({ id: context.id }),
        onDone: [
          {
            guard: { type: 'hasMatch', params: ({ event }) => event.output },
            target: 'offered',
            actions: { type: 'offer', params: ({ event }) => event.output },
          },
          { target: 'none' },
        ],
        // the offer is a convenience: without the list, nothing is offered
        onError: 'none',
      },
    },
    offered: {
      description: 'The workspace offers to start from the best same-template match.',
      on: {
        accept: { target: 'carrying', actions: 'clearError' },
        dismiss: 'none',
      },
    },
    carrying: {
      description: "The earlier questionnaire's approved answers are carried forward.",
      tags: ['busy'],
      invoke: {
        src: 'carryForward',
        input: ({ context }) => ({ id: context.id, fromId: context.match?.questionnaire_id ?? 0 }),
        onDone: {
          target: 'carried',
          actions: [
            { type: 'setResult', params: ({ event }) => event.output },
            { type: 'announce', params: ({ event }) => event.output },
            'tellParent',
          ],
        },
        onError: {
          target: 'failed',
          actions: {
            type: 'showError',
            params: ({ event }: { event: { error: unknown } }) => event.error,
          },
        },
      },
    },
    failed: {
      description: 'The carry failed: the offer stays, with the error and a retry.',
      on: {
        retry: { target: 'carrying', actions: 'clearError' },
        dismiss: 'none',
      },
    },
    carried: {
      description: 'How many answers were carried, changed, new and removed, until dismissed.',
      on: { dismiss: 'none' },
    },
    none: {
      description: "Nothing (more) to offer; the workspace's later changes are ignored.",
    },
  },
})
