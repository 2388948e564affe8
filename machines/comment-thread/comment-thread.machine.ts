import { assign, emit, enqueueActions, fromPromise, setup } from 'xstate'
import { COLLABORATION_TEXTS, type Comment, type Person } from '../../contract/collaboration.ts'
import { errorMessage } from '../../contract/errors.ts'
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

const mustBeProvided = mustBeProvidedIn('commentThreadMachine')

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
    mine: ({ context }, commentId: number) => mine(context, commentId),
    mayDelete: ({ context }, commentId: number) =>
      mine(context, commentId) ||
      (context.moderator && context.comments.some((c) => c.id === commentId && !c.deleted)),
    isThread: ({ context }, threadId: number) =>
      context.comments.some((c) => c.id === threadId && c.parent_id === null),
    hasFailed: ({ context }) => context.failed !== null,
    suggesting: ({ context }) => context.mention !== null,
  },
  actions: {
    setPeople: assign((_, people: Person[]) => ({ people })),
    setComments: assign((_, comments: Comment[]) => ({ comments, error: null })),
    takeComments: assign((_, comments: Comment[]) => ({ comments })),
    showLoadError: assign((_, error: unknown) => ({
      error: errorMessage(error, COLLABORATION_TEXTS.commentsLoadFailed),
    })),
    clearError: assign({ error: null }),
    write: assign(({ context }, typed: { body: string; caret: number }) => {
      const at = mentionAt(typed.body, typed.caret)
      return {
        composer: { ...context.composer, body: typed.body, caret: typed.caret },
        mention: mentionOf(context, typed.body, typed.caret),
        dismissed: at && at.start === context.dismissed ? context.dismissed : null,
      }
    }),
    moveHighlight: assign(({ context }, by: 1 | -1) => {
      const mention = context.mention
      if (!mention) return {}
      const count = mention.matches.length
      return { mention: { ...mention, highlight: (mention.highlight + by + count) % count } }
    }),
    chooseMention: assign(({ context }, personId: number | undefined) => {
      const mention = context.mention
      const person =
        mention?.matches.find((p) => p.id === personId) ?? mention?.matches[mention.highlight]
      if (!mention || !person) return {}
      const { composer } = context
      const written = insertMention(composer.body, mention.start, composer.caret, person.name)
      return {
        composer: {
          ...composer,
          ...written,
          mentions: [...composer.mentions, { id: person.id, name: person.name }],
        },
        mention: null,
      }
    }),
    closeMention: assign(({ context }) => ({
      dismissed: context.mention?.start ?? null,
      mention: null,
    })),
    compose: assign(({ context }) => ({ action: composerAction(context) })),
    showEmpty: assign({ error: COLLABORATION_TEXTS.commentEmpty }),
    openReply: assign((_, threadId: number) => ({
      composer: { ...newComposer(), mode: 'reply' as const, targetId: threadId },
      mention: null,
      error: null,
    })),
    openEdit: assign(({ context }, commentId: number) => {
      const comment = context.comments.find((c) => c.id === commentId)
      const body = comment?.body ?? ''
      return {
        composer: {
          mode: 'edit' as const,
          targetId: commentId,
          body,
          caret: body.length,
          mentions: (comment?.mentions ?? []).map((m) => ({ id: Number(m.id), name: m.name })),
        },
        mention: null,
        error: null,
      }
    }),
    cancelCompose: assign({ composer: newComposer(), mention: null, error: null }),
    askDelete: assign((_, commentId: number) => ({ deleting: commentId, error: null })),
    resolve: assign((_, threadId: number) => ({
      action: { kind: 'resolve' as const, id: threadId },
    })),
    reopen: assign((_, threadId: number) => ({
      action: { kind: 'reopen' as const, id: threadId },
    })),
    retry: assign(({ context }) => ({ action: context.failed, error: null })),
    dismiss: assign({ error: null, failed: null }),
    confirmDelete: assign(({ context }) => ({
      action: { kind: 'delete' as const, id: context.deleting ?? 0 },
      deleting: null,
    })),
    cancelDelete: assign({ deleting: null }),
    settle: enqueueActions(({ context, enqueue }, comment: Comment) => {
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
    keepFailed: assign(({ context }, error: unknown) => ({
      error: errorMessage(error, COLLABORATION_TEXTS.commentSaveFailed),
      failed: context.action,
      action: null,
    })),
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
          description: 'Reading the organisation’s people.',
          invoke: {
            id: 'people',
            src: 'loadPeople',
            onDone: {
              target: 'ready',
              actions: { type: 'setPeople', params: ({ event }) => event.output },
            },
            // without them, a comment is still written; nobody is offered after an "@"
            onError: 'unavailable',
          },
        },
        ready: { description: 'Typing "@" offers the people whose names match.' },
        unavailable: {
          description:
            'The people could not be read: comments are still written, nobody is offered.',
        },
      },
    },
    thread: {
      description: 'The question’s comment threads and the composer.',
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
              actions: { type: 'setComments', params: ({ event }) => event.output },
            },
            onError: {
              target: 'failed',
              actions: {
                type: 'showLoadError',
                params: ({ event }: { event: { error: unknown } }) => event.error,
              },
            },
          },
        },
        failed: {
          description: 'The comments could not be read: says why, and reads them again on Retry.',
          on: { retry: { target: 'loading', actions: 'clearError' } },
        },
        ready: {
          description: 'The threads are shown; the composer writes, with "@" suggestions.',
          initial: 'idle',
          on: {
            'body.change': { actions: { type: 'write', params: ({ event }) => event } },
            'mention.move': {
              guard: 'suggesting',
              actions: { type: 'moveHighlight', params: ({ event }) => event.by },
            },
            'mention.choose': {
              guard: 'suggesting',
              actions: { type: 'chooseMention', params: ({ event }) => event.personId },
            },
            'mention.close': { guard: 'suggesting', actions: 'closeMention' },
          },
          states: {
            reloading: {
              description:
                'Someone else’s comment reached the question (the live stream): the comments are read again, quietly, keeping what is being written.',
              invoke: {
                id: 'reload',
                src: 'loadComments',
                input: ({ context }) => ({ questionId: context.questionId }),
                onDone: {
                  target: 'idle',
                  actions: { type: 'takeComments', params: ({ event }) => event.output },
                },
                onError: 'idle',
              },
            },
            idle: {
              description: 'Nothing is being sent: write, reply, edit, delete, resolve or reopen.',
              on: {
                refresh: 'reloading',
                submit: [
                  { guard: 'writable', target: 'working', actions: 'compose' },
                  { actions: 'showEmpty' },
                ],
                'reply.open': {
                  guard: { type: 'isThread', params: ({ event }) => event.threadId },
                  actions: { type: 'openReply', params: ({ event }) => event.threadId },
                },
                'edit.open': {
                  guard: { type: 'mine', params: ({ event }) => event.commentId },
                  actions: { type: 'openEdit', params: ({ event }) => event.commentId },
                },
                'compose.cancel': { actions: 'cancelCompose' },
                delete: {
                  guard: { type: 'mayDelete', params: ({ event }) => event.commentId },
                  target: 'confirming',
                  actions: { type: 'askDelete', params: ({ event }) => event.commentId },
                },
                resolve: {
                  guard: { type: 'isThread', params: ({ event }) => event.threadId },
                  target: 'working',
                  actions: { type: 'resolve', params: ({ event }) => event.threadId },
                },
                reopen: {
                  guard: { type: 'isThread', params: ({ event }) => event.threadId },
                  target: 'working',
                  actions: { type: 'reopen', params: ({ event }) => event.threadId },
                },
                retry: { guard: 'hasFailed', target: 'working', actions: 'retry' },
                dismiss: { actions: 'dismiss' },
              },
            },
            confirming: {
              description:
                'Asks before deleting a comment; its thread stays, saying it was deleted.',
              on: {
                'delete.confirm': { target: 'working', actions: 'confirmDelete' },
                'delete.cancel': { target: 'idle', actions: 'cancelDelete' },
              },
            },
            working: {
              description: 'One call on the thread: write, edit, delete, resolve or reopen.',
              invoke: {
                id: 'act',
                src: 'act',
                input: ({ context }) => context.action as CommentAction,
                onDone: {
                  target: 'idle',
                  actions: { type: 'settle', params: ({ event }) => event.output },
                },
                onError: {
                  target: 'idle',
                  actions: {
                    type: 'keepFailed',
                    params: ({ event }: { event: { error: unknown } }) => event.error,
                  },
                },
              },
            },
          },
        },
      },
    },
  },
})
