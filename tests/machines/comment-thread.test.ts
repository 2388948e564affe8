import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { Comment, Person } from '../../contract/collaboration.ts'
import * as view from '../../machines/comment-thread/index.ts'
import {
  type CommentAction,
  commentThreadMachine,
  commentThreadView,
  insertMention,
  keptMentions,
  mentionAt,
  piecesOf,
} from '../../machines/comment-thread/index.ts'
import { ada, commentOf, grace, people } from '../fixtures/comments.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

// a thread of mine with a reply of Grace's, and a resolved thread of Grace's
const thread = [
  commentOf(1),
  commentOf(2, { parent_id: 1, author: grace }),
  commentOf(3, { author: grace, resolved_at: '2025-01-02T10:00:00Z', resolved_by: grace }),
]

const pending = pendingActors(commentThreadMachine)
const done = (id: string, output: unknown) => ({ type: `xstate.done.actor.${id}`, output })
const failed = (id: string, message: string) => ({
  type: `xstate.error.actor.${id}`,
  error: new Error(message),
})
const input = { questionId: 1, userId: 5, moderator: false }

const events: AnyEventObject[] = [
  { type: 'refresh' },
  done('reload', thread),
  failed('reload', 'offline'),
  done('load', thread),
  failed('load', 'That question was not found.'),
  done('people', people),
  failed('people', 'offline'),
  { type: 'body.change', body: 'Ask @a', caret: 6 },
  { type: 'body.change', body: 'Looks right', caret: 11 },
  { type: 'body.change', body: '', caret: 0 },
  { type: 'mention.move', by: 1 },
  { type: 'mention.choose' },
  { type: 'mention.close' },
  { type: 'reply.open', threadId: 1 },
  { type: 'edit.open', commentId: 1 },
  { type: 'edit.open', commentId: 2 },
  { type: 'compose.cancel' },
  { type: 'submit' },
  { type: 'delete', commentId: 1 },
  { type: 'delete', commentId: 2 },
  { type: 'delete.confirm' },
  { type: 'delete.cancel' },
  { type: 'resolve', threadId: 1 },
  { type: 'reopen', threadId: 3 },
  { type: 'retry' },
  { type: 'dismiss' },
  done('act', commentOf(1, { resolved_at: '2025-01-03T10:00:00Z', resolved_by: ada })),
  failed('act', 'Only its author can change a comment.'),
]

describe('commentThreadMachine', () => {
  testEveryPath(pending, events, {
    view,
    input,
    identity: (s) => [
      s.context.composer.mode,
      s.context.composer.body !== '',
      s.context.mention !== null,
      s.context.failed !== null,
    ],
    timeoutMs: 60_000,
  })

  test('offers people after an "@", writes the chosen "@Name", and sends only the mentions still written', async () => {
    const sent: CommentAction[] = []
    const actor = createActor(
      commentThreadMachine.provide({
        actors: {
          loadComments: fromPromise<Comment[], { questionId: number }>(async () => thread),
          loadPeople: fromPromise<Person[], void>(async () => people),
          act: fromPromise<Comment, CommentAction>(async ({ input }) => {
            sent.push(input)
            if (input.kind !== 'create') throw new Error('unexpected')
            return commentOf(9, {
              parent_id: input.request.parent_id ?? null,
              body: input.request.body,
            })
          }),
        },
      }),
      { input },
    ).start()
    const changed: number[] = []
    actor.on('changed', (event) => changed.push(event.open))
    await new Promise((r) => setTimeout(r, 0))
    const view = () => {
      const s = actor.getSnapshot()
      return Object.fromEntries(
        Object.entries(commentThreadView).map(([name, select]) => [name, select(s)]),
      ) as { [K in keyof typeof commentThreadView]: ReturnType<(typeof commentThreadView)[K]> }
    }
    actor.send({ type: 'reply.open', threadId: 1 })
    actor.send({ type: 'body.change', body: 'Ask @a', caret: 6 })
    // Ada (Ada Lovelace) and Alan (Alan Turing): each name's words are looked up
    expect(view().mention?.matches.map((p) => p.name)).toEqual(['Ada Lovelace', 'Alan Turing'])
    actor.send({ type: 'mention.move', by: 1 })
    actor.send({ type: 'mention.choose' })
    expect(view().composer.body).toBe('Ask @Alan Turing ')
    expect(view().mention).toBeNull()
    // the browser tells the caret at the end of the name written: the look-up stays closed
    actor.send({ type: 'body.change', body: 'Ask @Alan Turing ', caret: 17 })
    expect(view().mention).toBeNull()
    actor.send({ type: 'body.change', body: 'Ask @Alan Turing and @gr', caret: 24 })
    actor.send({ type: 'mention.choose', personId: 6 })
    expect(view().composer.body).toBe('Ask @Alan Turing and @Grace Hopper ')
    // Escape closes the suggestions for this "@" while it is typed
    actor.send({ type: 'body.change', body: 'Ask @Alan Turing and @Grace Hopper @', caret: 36 })
    expect(view().mention?.matches).toHaveLength(3)
    actor.send({ type: 'mention.close' })
    actor.send({ type: 'body.change', body: 'Ask @Alan Turing and @Grace Hopper @a', caret: 37 })
    expect(view().mention).toBeNull()
    // Alan's "@Name" is deleted: he is not mentioned
    actor.send({ type: 'body.change', body: 'Ask  and @Grace Hopper', caret: 22 })
    actor.send({ type: 'submit' })
    await new Promise((r) => setTimeout(r, 0))
    expect(sent).toEqual([
      {
        kind: 'create',
        questionId: 1,
        request: { body: 'Ask  and @Grace Hopper', mentions: [6], parent_id: 1 },
      },
    ])
    // the reply follows its thread; the open count did not change, nothing is told
    expect(view().comments.map((c) => c.id)).toEqual([1, 2, 9, 3])
    expect(view().composer).toMatchObject({ mode: 'new', body: '', mentions: [] })
    expect(changed).toEqual([])
  })

  test('tells the open count when a thread is resolved, and retries a refused call in the server’s words', async () => {
    let refuse = true
    const actor = createActor(
      commentThreadMachine.provide({
        actors: {
          loadComments: fromPromise<Comment[], { questionId: number }>(async () => thread),
          loadPeople: fromPromise<Person[], void>(() => Promise.reject(new Error('offline'))),
          act: fromPromise<Comment, CommentAction>(async ({ input }) => {
            if (refuse) throw new Error('That comment was not found.')
            return commentOf(input.kind === 'resolve' ? input.id : 0, {
              resolved_at: '2025-01-03T10:00:00Z',
              resolved_by: ada,
            })
          }),
        },
      }),
      { input },
    ).start()
    const changed: number[] = []
    actor.on('changed', (event) => changed.push(event.open))
    await new Promise((r) => setTimeout(r, 0))
    // without people, a comment is still written; "@" offers nobody
    actor.send({ type: 'body.change', body: '@a', caret: 2 })
    expect(actor.getSnapshot().context.mention).toBeNull()
    actor.send({ type: 'resolve', threadId: 1 })
    await new Promise((r) => setTimeout(r, 0))
    expect(actor.getSnapshot().context.error).toBe('That comment was not found.')
    refuse = false
    actor.send({ type: 'retry' })
    await new Promise((r) => setTimeout(r, 0))
    expect(actor.getSnapshot().context.error).toBeNull()
    expect(changed).toEqual([0])
    // someone else's comment is neither edited nor deleted
    actor.send({ type: 'edit.open', commentId: 2 })
    actor.send({ type: 'delete', commentId: 2 })
    expect(actor.getSnapshot().context.composer.mode).toBe('new')
    expect(actor.getSnapshot().matches({ thread: { ready: 'idle' } })).toBe(true)
  })
})

describe('mention text', () => {
  test('finds the "@name" at the caret, not an email address', () => {
    expect(mentionAt('Hi @Ad', 6)).toEqual({ start: 3, query: 'Ad' })
    expect(mentionAt('mail ada@example.com', 20)).toBeNull()
    expect(mentionAt('@ ', 2)).toBeNull()
    expect(insertMention('Hi @Ad thanks', 3, 6, 'Ada Lovelace')).toEqual({
      body: 'Hi @Ada Lovelace thanks',
      caret: 17,
    })
    expect(
      keptMentions('@Ada Lovelace', [
        { id: 5, name: 'Ada Lovelace' },
        { id: 6, name: 'Grace' },
      ]),
    ).toEqual([{ id: 5, name: 'Ada Lovelace' }])
  })

  test('cuts a comment at the names it mentions, leaving markup as text', () => {
    expect(piecesOf('<b>@Ada Lovelace</b> and @Ada', ['Ada', 'Ada Lovelace'])).toEqual([
      { text: '<b>', mention: false },
      { text: '@Ada Lovelace', mention: true },
      { text: '</b> and ', mention: false },
      { text: '@Ada', mention: true },
    ])
  })
})
