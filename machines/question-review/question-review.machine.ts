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

const errorOf = ({ event }: { event: { error: unknown } }) => event.error

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
  actions: {
    clearError: assign({ error: null }),
    startRequest: assign({ comment: '', error: null }),
    setComment: assign((_, comment: string) => ({ comment })),
    needComment: assign({ error: COLLABORATION_TEXTS.changesNeedComment }),
    clearComment: assign({ comment: '' }),
    showError: assign((_, error: unknown) => ({ error: messageOf(error) })),
    announce: emit((_, change: AnswerChange) => ({ type: 'changed' as const, change })),
  },
}).createMachine({
  id: 'questionReview',
  context: ({ input }) => ({ questionId: input.questionId, comment: '', error: null }),
  initial: 'idle',
  states: {
    idle: {
      description: "'Ready for review', or (an approver) 'Request changes'.",
      on: {
        ready: { target: 'marking', actions: 'clearError' },
        'changes.open': { target: 'requesting', actions: 'startRequest' },
      },
    },
    marking: {
      description: 'The question is marked ready for review.',
      invoke: {
        src: 'review',
        input: ({ context }) => ({
          questionId: context.questionId,
          request: { action: 'ready' as const },
        }),
        onDone: {
          target: 'idle',
          actions: { type: 'announce', params: ({ event }) => event.output },
        },
        onError: { target: 'idle', actions: { type: 'showError', params: errorOf } },
      },
    },
    requesting: {
      description: 'The comment saying what should change; it is needed.',
      on: {
        'comment.change': {
          actions: { type: 'setComment', params: ({ event }) => event.comment },
        },
        'changes.submit': [
          { guard: 'hasComment', target: 'sending', actions: 'clearError' },
          { actions: 'needComment' },
        ],
        cancel: { target: 'idle', actions: 'clearError' },
      },
    },
    sending: {
      description: 'The question goes back with the changes requested.',
      invoke: {
        src: 'review',
        input: ({ context }) => ({
          questionId: context.questionId,
          request: { action: 'request_changes' as const, comment: context.comment.trim() },
        }),
        onDone: {
          target: 'idle',
          actions: ['clearComment', { type: 'announce', params: ({ event }) => event.output }],
        },
        onError: { target: 'requesting', actions: { type: 'showError', params: errorOf } },
      },
    },
  },
})
