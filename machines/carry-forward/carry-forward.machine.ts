import { assign, emit, fromPromise, setup } from 'xstate'
import { errorMessage } from '../../contract/errors.ts'
import type { CarryForwardResponse, PreviousMatch } from '../../contract/questionnaires.ts'
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
    notCarried: ({ event }) => !(event as Extract<CarryForwardEvents, { type: 'check' }>).carried,
    hasMatch: ({ event }) =>
      offeredMatch((event as unknown as { output: PreviousMatch[] }).output) !== null,
  },
}).createMachine({
  id: 'carryForward',
  context: ({ input }) => ({ id: input.id, match: null, result: null, error: null }),
  initial: 'waiting',
  states: {
    waiting: {
      on: { check: [{ guard: 'notCarried', target: 'looking' }, { target: 'none' }] },
    },
    looking: {
      invoke: {
        src: 'loadPrevious',
        input: ({ context }) => ({ id: context.id }),
        onDone: [
          {
            guard: 'hasMatch',
            target: 'offered',
            actions: assign(({ event }) => ({ match: offeredMatch(event.output) })),
          },
          { target: 'none' },
        ],
        // the offer is a convenience: without the list, nothing is offered
        onError: 'none',
      },
    },
    offered: {
      on: {
        accept: { target: 'carrying', actions: assign({ error: null }) },
        dismiss: 'none',
      },
    },
    carrying: {
      tags: ['busy'],
      invoke: {
        src: 'carryForward',
        input: ({ context }) => ({ id: context.id, fromId: context.match?.questionnaire_id ?? 0 }),
        onDone: {
          target: 'carried',
          actions: [
            assign(({ event }) => ({ result: event.output, error: null })),
            emit(({ event }) => ({ type: 'carried' as const, result: event.output })),
          ],
        },
        onError: {
          target: 'failed',
          actions: assign(({ event }) => ({
            error: errorMessage(event.error, 'The earlier answers could not be carried forward'),
          })),
        },
      },
    },
    failed: {
      on: {
        retry: { target: 'carrying', actions: assign({ error: null }) },
        dismiss: 'none',
      },
    },
    carried: { on: { dismiss: 'none' } },
    // nothing (more) to offer; the workspace's later changes are ignored
    none: {},
  },
})
