import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { ChatSession } from '../../contract/chat.ts'
import * as view from '../../machines/chat-sessions/index.ts'
import { chatSessionsMachine, chatSessionsView } from '../../machines/chat-sessions/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const session = (id: number, title = `Conversation ${id}`): ChatSession => ({
  id,
  title,
  created_at: '2026-11-26T00:00:00.000Z',
  updated_at: '2026-11-26T00:00:00.000Z',
  message_count: 0,
})
const pending = pendingActors(chatSessionsMachine)
const events: AnyEventObject[] = [
  { type: 'search', q: 'backup' },
  { type: 'select', id: 2 },
  { type: 'create' },
  { type: 'rename', id: 1, title: 'Backups' },
  { type: 'delete', id: 1 },
  { type: 'refresh' },
  { type: 'retry' },
  { type: 'xstate.done.actor.loadSessions', output: [session(1), session(2)] },
  { type: 'xstate.error.actor.loadSessions', error: new Error('offline') },
  { type: 'xstate.done.actor.createSession', output: session(3) },
  { type: 'xstate.error.actor.createSession', error: new Error('offline') },
  { type: 'xstate.done.actor.renameSession', output: session(1, 'Backups') },
  { type: 'xstate.error.actor.renameSession', error: new Error('offline') },
  { type: 'xstate.done.actor.deleteSession' },
  { type: 'xstate.error.actor.deleteSession', error: new Error('offline') },
]
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('chatSessionsMachine', () => {
  testEveryPath(pending, events, { view })

  test('opens the first conversation, a new one once started, and another after a delete', async () => {
    let stored = [session(1), session(2)]
    const actor = createActor(
      chatSessionsMachine.provide({
        actors: {
          loadSessions: fromPromise<ChatSession[], { q: string }>(async ({ input }) =>
            stored.filter((s) => s.title.toLowerCase().includes(input.q.toLowerCase())),
          ),
          createSession: fromPromise<ChatSession, void>(async () => {
            stored = [session(3, 'New conversation'), ...stored]
            return session(3, 'New conversation')
          }),
          renameSession: fromPromise<ChatSession, { id: number; title: string }>(
            async ({ input }) => {
              stored = stored.map((s) => (s.id === input.id ? session(s.id, input.title) : s))
              return session(input.id, input.title)
            },
          ),
          deleteSession: fromPromise<void, { id: number }>(async ({ input }) => {
            stored = stored.filter((s) => s.id !== input.id)
          }),
        },
      }),
    )
    const selected: (number | null)[] = []
    actor.on('selected', (event) => selected.push(event.id))
    actor.start()
    await settle()
    expect(chatSessionsView.selectedId(actor.getSnapshot())).toBe(1)
    actor.send({ type: 'create' })
    await settle()
    await settle()
    expect(chatSessionsView.selectedId(actor.getSnapshot())).toBe(3)
    actor.send({ type: 'rename', id: 3, title: 'Backups' })
    await settle()
    await settle()
    expect(chatSessionsView.sessions(actor.getSnapshot())[0]?.title).toBe('Backups')
    actor.send({ type: 'delete', id: 3 })
    await settle()
    await settle()
    expect(chatSessionsView.selectedId(actor.getSnapshot())).toBe(1)
    actor.send({ type: 'search', q: 'conversation 2' })
    await settle()
    expect(chatSessionsView.sessions(actor.getSnapshot()).map((s) => s.id)).toEqual([2])
    expect(selected.at(-1)).toBe(1)
  })
})
