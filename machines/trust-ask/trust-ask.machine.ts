import { assign, fromPromise, setup } from 'xstate'
import { errorMessage } from '../../contract/errors.ts'
import { TRUST_TEXTS, type TrustAnswer } from '../../contract/trust.ts'
import { mustBeProvidedIn } from '../actors.ts'

export interface TrustAskContext {
  slug: string
  question: string
  /** The question the answer is for (the box may be edited since). */
  asked: string | null
  answer: TrustAnswer | null
  error: string | null
}

export type TrustAskEvents = { type: 'edit'; question: string } | { type: 'ask' }

const mustBeProvided = mustBeProvidedIn('trustAskMachine')

/**
 * The trust centre's ask box (issue 40): a visitor's question answered from what is published
 * only, with its citations; "ask us" with the contact address when nothing published answers it;
 * a refusal (too many questions from this address) said as the server says it.
 */
export const trustAskMachine = setup({
  types: {
    context: {} as TrustAskContext,
    events: {} as TrustAskEvents,
    input: {} as { slug: string },
    tags: {} as 'busy',
  },
  actors: {
    askTrust: fromPromise<TrustAnswer, { slug: string; question: string }>(
      mustBeProvided('askTrust'),
    ),
  },
  guards: { hasQuestion: ({ context }) => context.question.trim().length >= 3 },
}).createMachine({
  id: 'trustAsk',
  context: ({ input }) => ({
    slug: input.slug,
    question: '',
    asked: null,
    answer: null,
    error: null,
  }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        edit: { actions: assign({ question: ({ event }) => event.question, error: null }) },
        ask: [
          { guard: 'hasQuestion', target: 'asking' },
          { actions: assign({ error: TRUST_TEXTS.askEmpty }) },
        ],
      },
    },
    asking: {
      tags: ['busy'],
      invoke: {
        id: 'askTrust',
        src: 'askTrust',
        input: ({ context }) => ({ slug: context.slug, question: context.question.trim() }),
        onDone: {
          target: 'idle',
          actions: assign(({ context, event }) => ({
            answer: event.output,
            asked: context.question.trim(),
            error: null,
          })),
        },
        onError: {
          target: 'idle',
          actions: assign({
            error: ({ event }) => errorMessage(event.error, TRUST_TEXTS.askFailed),
          }),
        },
      },
    },
  },
})
