import { assertEvent, assign, emit, fromPromise, setup } from 'xstate'
import { CHAT_TEXTS, type ChatSession } from '../../contract/chat.ts'
import { errorMessage } from '../../contract/errors.ts'
import { mustBeProvidedIn } from '../actors.ts'
import type { ChatSessionsSchema } from './chat-sessions.types.ts'

const mustBeProvided = mustBeProvidedIn('chatSessionsMachine')
const failed = (fallback: string) => ({
  type: 'fail' as const,
  params: ({ event }: { event: { error: unknown } }) => ({ error: event.error, fallback }),
})

/**
 * The chat page's conversation list: loads (and searches) one's conversations, opens one, starts a
 * new one, renames and deletes; a conversation the server named after its first question shows
 * the new name after `refresh`.
 */
export const chatSessionsMachine = setup({
  types: {} as ChatSessionsSchema,
  actors: {
    loadSessions: fromPromise<ChatSession[], { q: string }>(mustBeProvided('loadSessions')),
    createSession: fromPromise<ChatSession, void>(mustBeProvided('createSession')),
    renameSession: fromPromise<ChatSession, { id: number; title: string }>(
      mustBeProvided('renameSession'),
    ),
    deleteSession: fromPromise<void, { id: number }>(mustBeProvided('deleteSession')),
  },
  actions: {
    fail: assign((_, params: { error: unknown; fallback: string }) => ({
      error: errorMessage(params.error, params.fallback),
    })),
    announce: emit(({ context }) => ({ type: 'selected' as const, id: context.selectedId })),
  },
}).createMachine({
  id: 'chatSessions',
  context: { sessions: [], q: '', selectedId: null, error: null },
  initial: 'loading',
  on: {
    search: { target: '.loading', actions: assign({ q: ({ event }) => event.q }) },
    refresh: '.loading',
  },
  states: {
    loading: {
      description: 'Reads the conversations (matching the search); the first is opened if none is.',
      tags: ['loading'],
      invoke: {
        id: 'loadSessions',
        src: 'loadSessions',
        input: ({ context }) => ({ q: context.q }),
        onDone: {
          target: 'ready',
          actions: [
            assign(({ context, event }) => ({
              sessions: event.output,
              error: null,
              selectedId:
                context.selectedId !== null &&
                (event.output.some((s) => s.id === context.selectedId) || context.q)
                  ? context.selectedId
                  : (event.output[0]?.id ?? null),
            })),
            'announce',
          ],
        },
        onError: { target: 'failed', actions: failed(CHAT_TEXTS.loadFailed) },
      },
    },
    failed: { description: 'The list could not be read: a retry.', on: { retry: 'loading' } },
    ready: {
      description: 'The list; open, start, rename or delete a conversation.',
      on: {
        select: { actions: [assign({ selectedId: ({ event }) => event.id }), 'announce'] },
        create: 'creating',
        rename: 'renaming',
        delete: 'deleting',
      },
    },
    creating: {
      description: 'Starts a conversation, named by its first question.',
      tags: ['busy'],
      invoke: {
        id: 'createSession',
        src: 'createSession',
        onDone: {
          target: 'loading',
          actions: assign({ selectedId: ({ event }) => event.output.id, q: '' }),
        },
        onError: { target: 'ready', actions: failed(CHAT_TEXTS.startFailed) },
      },
    },
    renaming: {
      description: 'Renames a conversation.',
      tags: ['busy'],
      invoke: {
        id: 'renameSession',
        src: 'renameSession',
        input: ({ event }) => {
          assertEvent(event, 'rename')
          return { id: event.id, title: event.title }
        },
        onDone: 'loading',
        onError: { target: 'ready', actions: failed(CHAT_TEXTS.renameFailed) },
      },
    },
    deleting: {
      description: 'Deletes a conversation; another is opened.',
      tags: ['busy'],
      invoke: {
        id: 'deleteSession',
        src: 'deleteSession',
        input: ({ event }) => {
          assertEvent(event, 'delete')
          return { id: event.id }
        },
        onDone: { target: 'loading', actions: assign({ error: null }) },
        onError: { target: 'ready', actions: failed(CHAT_TEXTS.deleteFailed) },
      },
    },
  },
})
