import { assign, emit, fromPromise, setup } from 'xstate'
import { COLLABORATION_TEXTS, type ReviewActionRequest } from '../../contract/collaboration.ts'
import { errorMessage } from '../../contract/errors.ts'
import type { AnswerChange } from '../../contract/questionnaires.ts'
import { mustBeProvidedIn } from '../actors.ts'

/**
 * A question's review steps (issue 29): mark it ready for review, or (an approver) send it back
 * with changes requested, which needs a comment. Approval is the answer's own Approve.
 */

export interface QuestionReviewContext {
  questionId: number
  comment: string
  error: string | null
}

export type QuestionReviewEvents =
  | { type: 'ready' }
  | { type: 'changes.open' }
  | { type: 'comment.change'; comment: string }
  | { type: 'changes.submit' }
  | { type: 'cancel' }

export type QuestionReviewEmitted = { type: 'changed'; change: AnswerChange }

const mustBeProvided = mustBeProvidedIn('questionReviewMachine')

const messageOf = (error: unknown) => errorMessage(error, COLLABORATION_TEXTS.reviewFailed)

export const questionReviewMachine = setup({
  types: {
    context: {} as QuestionReviewContext,
    events: {} as QuestionReviewEvents,
    input: {} as { questionId: number },
    emitted: {} as QuestionReviewEmitted,
  },
  actors: {
    review: fromPromise<AnswerChange, { questionId: number; request: ReviewActionRequest }>(
      mustBeProvided('review'),
    ),
  },
  guards: {
    hasComment: ({ context }) => context.comment.trim() !== '',
  },
}).createMachine({
  id: 'questionReview',
  context: ({ input }) => ({ questionId: input.questionId, comment: '', error: null }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        ready: { target: 'marking', actions: assign({ error: null }) },
        'changes.open': { target: 'requesting', actions: assign({ comment: '', error: null }) },
      },
    },
    marking: {
      invoke: {
        src: 'review',
        input: ({ context }) => ({
          questionId: context.questionId,
          request: { action: 'ready' as const },
        }),
        onDone: {
          target: 'idle',
          actions: emit(({ event }) => ({ type: 'changed' as const, change: event.output })),
        },
        onError: {
          target: 'idle',
          actions: assign(({ event }) => ({ error: messageOf(event.error) })),
        },
      },
    },
    requesting: {
      on: {
        'comment.change': { actions: assign(({ event }) => ({ comment: event.comment })) },
        'changes.submit': [
          { guard: 'hasComment', target: 'sending', actions: assign({ error: null }) },
          { actions: assign({ error: COLLABORATION_TEXTS.changesNeedComment }) },
        ],
        cancel: { target: 'idle', actions: assign({ error: null }) },
      },
    },
    sending: {
      invoke: {
        src: 'review',
        input: ({ context }) => ({
          questionId: context.questionId,
          request: { action: 'request_changes' as const, comment: context.comment.trim() },
        }),
        onDone: {
          target: 'idle',
          actions: [
            assign({ comment: '' }),
            emit(({ event }) => ({ type: 'changed' as const, change: event.output })),
          ],
        },
        onError: {
          target: 'requesting',
          actions: assign(({ event }) => ({ error: messageOf(event.error) })),
        },
      },
    },
  },
})
