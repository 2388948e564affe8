import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromCallback, fromPromise } from 'xstate'
import type { ChatMessage, ChatSession } from '../../contract/chat.ts'
import * as view from '../../machines/chat-conversation/index.ts'
import {
  type ChatConversationEvents,
  type ConversationLoad,
  chatConversationMachine,
  chatConversationView,
} from '../../machines/chat-conversation/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const message = (id: number, role: 'user' | 'assistant', content: string): ChatMessage => ({
  id,
  role,
  content,
  citations: [],
  status: 'complete',
  created_at: '2026-11-26T00:00:00.000Z',
})
const session: ChatSession = {
  id: 7,
  title: 'Backups',
  created_at: '2026-11-26T00:00:00.000Z',
  updated_at: '2026-11-26T00:00:00.000Z',
  message_count: 2,
}
const load: ConversationLoad = {
  messages: [],
  quota: { used: 0, limit: 100, resets_at: '2026-12-01T00:00:00.000Z', language_model: false },
  followUps: ['Where are backups stored?'],
}
const pending = pendingActors(chatConversationMachine)
const events: AnyEventObject[] = [
  { type: 'draft.change', value: 'Do you encrypt backups?' },
  { type: 'send' },
  { type: 'ask', content: 'Where are backups stored?' },
  { type: 'stop' },
  { type: 'retry' },
  { type: 'export', format: 'pdf' },
  { type: 'source.open', fileId: 3, page: 2 },
  { type: 'xstate.done.actor.openSource' },
  { type: 'xstate.error.actor.openSource', error: new Error('offline') },
  { type: 'stream.token', text: 'Yes, ' },
  { type: 'stream.citations', citations: [] },
  { type: 'stream.done', answer: message(2, 'assistant', 'Yes.'), session },
  {
    type: 'stream.error',
    status: 429,
    message: 'Your organisation has used its 100 chat questions',
  },
  { type: 'stream.error', status: 0, message: 'Network error' },
  { type: 'xstate.done.actor.loadConversation', output: load },
  { type: 'xstate.error.actor.loadConversation', error: new Error('offline') },
  { type: 'xstate.done.actor.exportConversation' },
  { type: 'xstate.error.actor.exportConversation', error: new Error('offline') },
]
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('chatConversationMachine', () => {
  testEveryPath(pending, events, {
    view,
    inputs: [{ sessionId: 7 }],
    identity: (snapshot) => [snapshot.context.draft.length > 0, snapshot.context.asking !== null],
  })

  test('streams an answer in, stops keeping what came, and says when the quota is used up', async () => {
    let stopped = 0
    let streams = 0
    const actor = createActor(
      chatConversationMachine.provide({
        actors: {
          loadConversation: fromPromise<ConversationLoad, { sessionId: number }>(async () => load),
          exportConversation: fromPromise<void, { sessionId: number; format: 'markdown' | 'pdf' }>(
            async () => {},
          ),
          streamAnswer: fromCallback<
            ChatConversationEvents,
            { sessionId: number; content: string }
          >(({ sendBack, input }) => {
            streams += 1
            if (streams === 3) {
              sendBack({ type: 'stream.error', status: 429, message: 'Quota used up' })
              return () => {}
            }
            sendBack({ type: 'stream.token', text: `About ${input.content}: ` })
            sendBack({ type: 'stream.token', text: 'yes.' })
            return () => {
              stopped += 1
            }
          }),
        },
      }),
      { input: { sessionId: 7 } },
    ).start()
    let changes = 0
    actor.on('changed', () => {
      changes += 1
    })
    await settle()
    actor.send({ type: 'send' })
    expect(chatConversationView.streaming(actor.getSnapshot())).toBe(false)
    actor.send({ type: 'draft.change', value: 'backups' })
    actor.send({ type: 'send' })
    expect(chatConversationView.streamed(actor.getSnapshot())).toBe('About backups: yes.')
    expect(chatConversationView.draft(actor.getSnapshot())).toBe('')
    actor.send({ type: 'stop' })
    expect(stopped).toBe(1)
    expect(changes).toBe(1)
    await settle()
    actor.send({ type: 'ask', content: 'Where are backups stored?' })
    actor.send({ type: 'stream.done', answer: message(2, 'assistant', 'x'), session })
    await settle()
    actor.send({ type: 'draft.change', value: 'One more?' })
    actor.send({ type: 'send' })
    expect(chatConversationView.exhausted(actor.getSnapshot())).toBe(true)
    expect(chatConversationView.error(actor.getSnapshot())).toBe('Quota used up')
  })
})
