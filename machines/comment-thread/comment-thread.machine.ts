import { assign, emit, enqueueActions, fromPromise, setup } from 'xstate'
import type { Comment, Person } from '../../contract/collaboration.ts'
import { mustBeProvidedIn } from '../actors.ts'
import type {
  CommentAction,
  CommentThreadContext,
  CommentThreadEmitted,
  CommentThreadEvents,
  CommentThreadInput,
  Composer,
} from './comment-thread.types.ts'
import { insertMention, keptMentions, matchPeople, mentionAt } from './mentions.ts'

/**
 * A question's comment threads (issue 29): reads them, writes a new thread or a reply (with `@`
 * mentions chosen from the organisation's people), edits and deletes one's own, resolves and
 * reopens a thread. Each call's result replaces its comment in the list; a failed call keeps its
 * text and says why in the server's words, and Retry sends it again.
 */

export const COMMENT_TEXTS = {
  empty: 'A comment needs some text',
  loadFailed: 'The comments could not be loaded',
  saveFailed: 'The comment could not be saved',
} as const

const mustBeProvided = mustBeProvidedIn('commentThreadMachine')

const messageOf = (error: unknown, fallback: string) =>
  error instanceof Error && error.message ? error.message : fallback

const newComposer = (): Composer => ({
  mode: 'new',
  targetId: null,
  body: '',
  caret: 0,
  mentions: [],
})

/** Threads still open: first comments neither resolved nor deleted (the row's count). */
export const openThreads = (comments: readonly Comment[]) =>
  comments.filter((c) => c.parent_id === null && c.resolved_at === null && !c.deleted).length

/** The list with a comment the server returned: in its place, or at the end of its thread. */
export function withComment(comments: readonly Comment[], comment: Comment): Comment[] {
  if (comments.some((c) => c.id === comment.id)) {
    return comments.map((c) => (c.id === comment.id ? comment : c))
  }
  const thread = comment.parent_id
  if (thread === null) return [...comments, comment]
  const last = comments.findLastIndex((c) => c.id === thread || c.parent_id === thread)
  return last < 0 ? [...comments, comment] : comments.toSpliced(last + 1, 0, comment)
}

/** The call the composer's text makes: mentions whose "@Name" was deleted are left out. */
function composerAction(context: CommentThreadContext): CommentAction {
  const { composer } = context
  const body = composer.body.trim()
  const mentions = keptMentions(body, composer.mentions).map((m) => m.id)
  if (composer.mode === 'edit' && composer.targetId !== null) {
    return { kind: 'edit', id: composer.targetId, request: { body, mentions } }
  }
  return {
    kind: 'create',
    questionId: context.questionId,
    request: {
      body,
      ...(mentions.length ? { mentions } : {}),
      ...(composer.mode === 'reply' && composer.targetId !== null
        ? { parent_id: composer.targetId }
        : {}),
    },
  }
}

const mine = (context: CommentThreadContext, id: number) => {
  const comment = context.comments.find((c) => c.id === id)
  return (
    comment !== undefined &&
    !comment.deleted &&
    context.userId !== null &&
    comment.author?.id === String(context.userId)
  )
}

/** The suggestions for the "@name" at the caret, unless closed for that "@" or nobody matches. */
function mentionOf(context: CommentThreadContext, body: string, caret: number) {
  const typed = mentionAt(body, caret)
  if (!typed || typed.start === context.dismissed) return null
  const matches = matchPeople(context.people, typed.query)
  return matches.length ? { ...typed, matches, highlight: 0 } : null
}

export const commentThreadMachine = setup({
  types: {
    context: {} as CommentThreadContext,
    events: {} as CommentThreadEvents,
    input: {} as CommentThreadInput,
    emitted: {} as CommentThreadEmitted,
  },
  actors: {
    loadComments: fromPromise<Comment[], { questionId: number }>(mustBeProvided('loadComments')),
    loadPeople: fromPromise<Person[], void>(mustBeProvided('loadPeople')),
    act: fromPromise<Comment, CommentAction>(mustBeProvided('act')),
  },
  guards: {
    writable: ({ context }) => context.composer.body.trim() !== '',
    mine: ({ context, event }) => event.type === 'edit.open' && mine(context, event.commentId),
    mayDelete: ({ context, event }) =>
      event.type === 'delete' &&
      (mine(context, event.commentId) ||
        (context.moderator &&
          context.comments.some((c) => c.id === event.commentId && !c.deleted))),
    isThread: ({ context, event }) =>
      'threadId' in event &&
      context.comments.some((c) => c.id === event.threadId && c.parent_id === null),
    hasFailed: ({ context }) => context.failed !== null,
    suggesting: ({ context }) => context.mention !== null,
  },
  actions: {
    settle: enqueueActions(({ context, event, enqueue }) => {
      const comment = (event as unknown as { output: Comment }).output
      const comments = withComment(context.comments, comment)
      const action = context.action
      const composed = action?.kind === 'create' || action?.kind === 'edit'
      // a deleted comment that was being edited (or a thread being answered) leaves the composer
      const composerGone = action?.kind === 'delete' && context.composer.targetId === comment.id
      enqueue.assign({
        comments,
        action: null,
        failed: null,
        error: null,
        ...(composed || composerGone ? { composer: newComposer(), mention: null } : {}),
      })
      const open = openThreads(comments)
      if (open !== openThreads(context.comments)) {
        enqueue(emit({ type: 'changed' as const, questionId: context.questionId, open }))
      }
    }),
  },
}).createMachine({
  id: 'commentThread',
  context: ({ input }) => ({
    ...input,
    comments: [],
    people: [],
    composer: newComposer(),
    mention: null,
    dismissed: null,
    deleting: null,
    action: null,
    failed: null,
    error: null,
  }),
  type: 'parallel',
  states: {
    people: {
      description: 'The organisation’s people, whom the composer offers after an "@".',
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            id: 'people',
            src: 'loadPeople',
            onDone: { target: 'ready', actions: assign(({ event }) => ({ people: event.output })) },
            // without them, a comment is still written; nobody is offered after an "@"
            onError: 'unavailable',
          },
        },
        ready: {},
        unavailable: {},
      },
    },
    thread: {
      initial: 'loading',
      states: {
        loading: {
          description:
            'Reading the question’s comments, each thread’s first comment then its replies.',
          invoke: {
            id: 'load',
            src: 'loadComments',
            input: ({ context }) => ({ questionId: context.questionId }),
            onDone: {
              target: 'ready',
              actions: assign(({ event }) => ({ comments: event.output, error: null })),
            },
            onError: {
              target: 'failed',
              actions: assign(({ event }) => ({
                error: messageOf(event.error, COMMENT_TEXTS.loadFailed),
              })),
            },
          },
        },
        failed: {
          description: 'The comments could not be read: says why, and reads them again on Retry.',
          on: { retry: { target: 'loading', actions: assign({ error: null }) } },
        },
        ready: {
          initial: 'idle',
          on: {
            'body.change': {
              actions: assign(({ context, event }) => {
                const typed = mentionAt(event.body, event.caret)
                return {
                  composer: { ...context.composer, body: event.body, caret: event.caret },
                  mention: mentionOf(context, event.body, event.caret),
                  dismissed: typed && typed.start === context.dismissed ? context.dismissed : null,
                }
              }),
            },
            'mention.move': {
              guard: 'suggesting',
              actions: assign(({ context, event }) => {
                const mention = context.mention
                if (!mention) return {}
                const count = mention.matches.length
                return {
                  mention: {
                    ...mention,
                    highlight: (mention.highlight + event.by + count) % count,
                  },
                }
              }),
            },
            'mention.choose': {
              guard: 'suggesting',
              actions: assign(({ context, event }) => {
                const mention = context.mention
                const person =
                  mention?.matches.find((p) => p.id === event.personId) ??
                  mention?.matches[mention.highlight]
                if (!mention || !person) return {}
                const { composer } = context
                const written = insertMention(
                  composer.body,
                  mention.start,
                  composer.caret,
                  person.name,
                )
                return {
                  composer: {
                    ...composer,
                    ...written,
                    mentions: [...composer.mentions, { id: person.id, name: person.name }],
                  },
                  mention: null,
                }
              }),
            },
            'mention.close': {
              guard: 'suggesting',
              actions: assign(({ context }) => ({
                dismissed: context.mention?.start ?? null,
                mention: null,
              })),
            },
          },
          states: {
            // someone else's comment reached the question (the live stream): read them again,
            // quietly, keeping what is being written
            reloading: {
              invoke: {
                id: 'reload',
                src: 'loadComments',
                input: ({ context }) => ({ questionId: context.questionId }),
                onDone: {
                  target: 'idle',
                  actions: assign(({ event }) => ({ comments: event.output })),
                },
                onError: 'idle',
              },
            },
            idle: {
              on: {
                refresh: 'reloading',
                submit: [
                  {
                    guard: 'writable',
                    target: 'working',
                    actions: assign(({ context }) => ({ action: composerAction(context) })),
                  },
                  { actions: assign({ error: COMMENT_TEXTS.empty }) },
                ],
                'reply.open': {
                  guard: 'isThread',
                  actions: assign(({ event }) => ({
                    composer: {
                      ...newComposer(),
                      mode: 'reply' as const,
                      targetId: event.threadId,
                    },
                    mention: null,
                    error: null,
                  })),
                },
                'edit.open': {
                  guard: 'mine',
                  actions: assign(({ context, event }) => {
                    const comment = context.comments.find((c) => c.id === event.commentId)
                    const body = comment?.body ?? ''
                    return {
                      composer: {
                        mode: 'edit' as const,
                        targetId: event.commentId,
                        body,
                        caret: body.length,
                        mentions: (comment?.mentions ?? []).map((m) => ({
                          id: Number(m.id),
                          name: m.name,
                        })),
                      },
                      mention: null,
                      error: null,
                    }
                  }),
                },
                'compose.cancel': {
                  actions: assign({ composer: newComposer(), mention: null, error: null }),
                },
                delete: {
                  guard: 'mayDelete',
                  target: 'confirming',
                  actions: assign(({ event }) => ({ deleting: event.commentId, error: null })),
                },
                resolve: {
                  guard: 'isThread',
                  target: 'working',
                  actions: assign(({ event }) => ({
                    action: { kind: 'resolve' as const, id: event.threadId },
                  })),
                },
                reopen: {
                  guard: 'isThread',
                  target: 'working',
                  actions: assign(({ event }) => ({
                    action: { kind: 'reopen' as const, id: event.threadId },
                  })),
                },
                retry: {
                  guard: 'hasFailed',
                  target: 'working',
                  actions: assign(({ context }) => ({ action: context.failed, error: null })),
                },
                dismiss: { actions: assign({ error: null, failed: null }) },
              },
            },
            confirming: {
              description:
                'Asks before deleting a comment; its thread stays, saying it was deleted.',
              on: {
                'delete.confirm': {
                  target: 'working',
                  actions: assign(({ context }) => ({
                    action: { kind: 'delete' as const, id: context.deleting ?? 0 },
                    deleting: null,
                  })),
                },
                'delete.cancel': { target: 'idle', actions: assign({ deleting: null }) },
              },
            },
            working: {
              description: 'One call on the thread: write, edit, delete, resolve or reopen.',
              invoke: {
                id: 'act',
                src: 'act',
                input: ({ context }) => context.action as CommentAction,
                onDone: { target: 'idle', actions: 'settle' },
                onError: {
                  target: 'idle',
                  actions: assign(({ context, event }) => ({
                    error: messageOf(event.error, COMMENT_TEXTS.saveFailed),
                    failed: context.action,
                    action: null,
                  })),
                },
              },
            },
          },
        },
      },
    },
  },
})
