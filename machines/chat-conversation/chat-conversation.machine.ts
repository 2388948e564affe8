import { assign, emit, fromCallback, fromPromise, setup } from 'xstate'
import { mustBeProvidedIn } from '../actors.ts'
import { failureText } from '../shared-actions.ts'
import type {
  ChatConversationContext,
  ChatConversationEvents,
  ConversationLoad,
} from './chat-conversation.types.ts'

export type * from './chat-conversation.types.ts'

const mustBeProvided = mustBeProvidedIn('chatConversationMachine')

/**
 * One conversation (spec section 7 'Chat'; issue 19): reads its messages, the quota and suggested
 * follow-ups; a question streams its answer in (the tokens as they come, then the sources);
 * 'Stop' ends the stream and keeps what came; a failure offers 'Retry'; past the month's quota
 * the composer says so and waits for next month or a larger plan.
 */
export const chatConversationMachine = setup({
  types: {
    context: {} as ChatConversationContext,
    input: {} as { sessionId: number },
    events: {} as ChatConversationEvents,
    emitted: {} as { type: 'changed' },
    tags: {} as 'loading' | 'streaming',
  },
  actors: {
    loadConversation: fromPromise<ConversationLoad, { sessionId: number }>(
      mustBeProvided('loadConversation'),
    ),
    openSource: fromPromise<void, { fileId: number; page: number | null }>(
      mustBeProvided('openSource'),
    ),
    exportConversation: fromPromise<void, { sessionId: number; format: 'markdown' | 'pdf' }>(
      mustBeProvided('exportConversation'),
    ),
    streamAnswer: fromCallback<ChatConversationEvents, { sessionId: number; content: string }>(
      mustBeProvided('streamAnswer'),
    ),
  },
  actions: {
    changed: emit({ type: 'changed' } as const),
    /** The draft becomes the question on its way. */
    askDraft: assign(({ context }) => ({ asking: context.draft.trim(), draft: '', error: null })),
    fail: assign(({ event }, fallback: string) => ({ error: failureText(event, fallback) })),
  },
  guards: {
    hasDraft: ({ context }) => context.draft.trim().length > 0,
    quotaError: ({ event }) => event.type === 'stream.error' && event.status === 429,
  },
}).createMachine({
  id: 'chatConversation',
  context: ({ input }) => ({
    sessionId: input.sessionId,
    messages: [],
    draft: '',
    asking: null,
    streamed: '',
    citations: [],
    error: null,
    quota: null,
    followUps: [],
  }),
  initial: 'loading',
  on: { 'draft.change': { actions: assign({ draft: ({ event }) => event.value }) } },
  states: {
    loading: {
      description: 'Reads the messages, the quota and the suggested follow-ups.',
      tags: ['loading'],
      invoke: {
        id: 'loadConversation',
        src: 'loadConversation',
        input: ({ context }) => ({ sessionId: context.sessionId }),
        onDone: {
          target: 'idle',
          actions: assign(({ event }) => ({
            messages: event.output.messages,
            quota: event.output.quota,
            followUps: event.output.followUps,
            asking: null,
            streamed: '',
            citations: [],
          })),
        },
        onError: {
          target: 'failed',
          actions: { type: 'fail', params: 'The conversation could not be loaded.' },
        },
      },
    },
    idle: {
      description: 'The composer; a question or a suggested follow-up is sent.',
      on: {
        send: { guard: 'hasDraft', target: 'streaming', actions: 'askDraft' },
        ask: {
          target: 'streaming',
          actions: assign(({ event }) => ({ asking: event.content, error: null })),
        },
        export: 'exporting',
        'source.open': 'openingSource',
      },
    },
    openingSource: {
      description: 'Opens the cited document at its page, in a new tab.',
      tags: ['loading'],
      invoke: {
        id: 'openSource',
        src: 'openSource',
        input: ({ event }) =>
          event.type === 'source.open'
            ? { fileId: event.fileId, page: event.page }
            : { fileId: 0, page: null },
        onDone: 'idle',
        onError: {
          target: 'idle',
          actions: { type: 'fail', params: 'The document could not be opened.' },
        },
      },
    },
    exporting: {
      description: 'Downloads the conversation as Markdown or PDF.',
      tags: ['loading'],
      invoke: {
        id: 'exportConversation',
        src: 'exportConversation',
        input: ({ context, event }) => ({
          sessionId: context.sessionId,
          format: event.type === 'export' ? event.format : 'markdown',
        }),
        onDone: 'idle',
        onError: {
          target: 'idle',
          actions: { type: 'fail', params: 'The conversation could not be exported.' },
        },
      },
    },
    streaming: {
      description: 'The answer streams in; Stop keeps what came.',
      tags: ['streaming'],
      entry: assign({ streamed: '', citations: [] }),
      invoke: {
        id: 'streamAnswer',
        src: 'streamAnswer',
        input: ({ context }) => ({ sessionId: context.sessionId, content: context.asking ?? '' }),
      },
      on: {
        'stream.token': {
          actions: assign({ streamed: ({ context, event }) => context.streamed + event.text }),
        },
        'stream.citations': { actions: assign({ citations: ({ event }) => event.citations }) },
        'stream.done': { target: 'loading', actions: 'changed' },
        'stream.error': [
          {
            guard: 'quotaError',
            target: 'quotaExhausted',
            actions: assign({ error: ({ event }) => event.message }),
          },
          { target: 'failed', actions: assign({ error: ({ event }) => event.message }) },
        ],
        // leaving the state stops the stream: the server keeps the part sent, marked stopped
        stop: { target: 'loading', actions: 'changed' },
      },
    },
    failed: {
      description: "The reason, and 'Retry' (the same question again).",
      on: {
        retry: [
          { guard: ({ context }) => context.asking !== null, target: 'streaming' },
          { target: 'loading' },
        ],
        send: { guard: 'hasDraft', target: 'streaming', actions: 'askDraft' },
      },
    },
    quotaExhausted: {
      description: 'The month’s questions are used up: the reason; nothing more is sent.',
    },
  },
})
