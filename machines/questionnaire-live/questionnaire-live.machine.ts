import { assign, enqueueActions, fromCallback, fromPromise, setup } from 'xstate'
import type { ChangeEvent } from '../../contract/collaboration.ts'
import type { UserRef } from '../../contract/knowledge.ts'
import type { AnswerChange } from '../../contract/questionnaires.ts'
import { mustBeProvidedIn } from '../actors.ts'
import { reconnected, streamDelays } from '../shared-actions.ts'

/**
 * The live side of an open questionnaire (issue 29): one stream of server-sent events tells who
 * else is looking (presence) and what others changed; the rows named are read again and handed to
 * the workspace as a change, so answers, assignments and comment counts follow without a reload;
 * a finished export is told to the workspace, whose export menu reads the latest file again.
 * A lost stream is opened again after a back-off (1 s, 2 s, 4 s … 30 s), and everything is read
 * again then, since changes may have been missed while it was away. A stream the server refuses
 * (too many open for this person, issue 37) pauses live updates for the wait it names and tells
 * the workspace ("Live updates paused"); a `resync` from the server (its listener was away) reads
 * everything again.
 */

export type LiveStreamEvent =
  | { type: 'stream.open' }
  | { type: 'stream.presence'; viewers: UserRef[] }
  | { type: 'stream.change'; change: ChangeEvent }
  | { type: 'stream.closed' }
  | { type: 'stream.refused'; retryAfterS: number }
  | { type: 'stream.resync' }

export interface LiveContext {
  id: number
  viewers: UserRef[]
  attempt: number
  /** Seconds the server asked to wait after refusing the stream. */
  retryAfterS: number
  /** Questions to read again (null: all of them), gathered while a read runs. */
  pending: number[] | null | undefined
  /** The questions the running read asked for (null: all). */
  reading: number[] | null
}

export interface FetchRowsInput {
  id: number
  /** null: every row. */
  questionIds: number[] | null
}

const mustBeProvided = mustBeProvidedIn('questionnaireLiveMachine')

/** Two sets of questions to read, as one (null: all). */
const union = (a: number[] | null | undefined, b: number[] | null) =>
  a === null || b === null ? null : [...new Set([...(a ?? []), ...b])]

export const questionnaireLiveMachine = setup({
  types: {
    context: {} as LiveContext,
    events: {} as LiveStreamEvent,
    input: {} as { id: number },
  },
  actors: {
    stream: fromCallback<LiveStreamEvent, { id: number }>(mustBeProvided('stream')),
    fetchRows: fromPromise<AnswerChange, FetchRowsInput>(mustBeProvided('fetchRows')),
  },
  delays: streamDelays,
  guards: {
    hasPending: ({ context }) => context.pending !== undefined,
    /** An export finished (issue 37): no row changed, the export menus read the latest file. */
    exported: ({ event }) => event.type === 'stream.change' && event.change.kind === 'export',
    reconnected,
  },
  actions: {
    want: assign(({ context }, questionIds: number[] | null) => ({
      pending: union(context.pending, questionIds),
    })),
    wantAll: assign({ pending: null }),
    resetAttempts: assign({ attempt: 0 }),
    tellViewers: enqueueActions(({ context, self, enqueue }) => {
      // told to the workspace that runs it (alone, as in its path tests, it keeps them)
      if (self._parent) enqueue.sendParent({ type: 'presence.set', viewers: context.viewers })
    }),
    tellExports: enqueueActions(({ self, enqueue }) => {
      if (self._parent) enqueue.sendParent({ type: 'exports.changed' })
    }),
    tellPaused: enqueueActions(({ self, enqueue }) => {
      if (self._parent) enqueue.sendParent({ type: 'live.paused', paused: true })
    }),
    tellResumed: enqueueActions(({ self, enqueue }) => {
      if (self._parent) enqueue.sendParent({ type: 'live.paused', paused: false })
    }),
    handOver: enqueueActions(({ self, enqueue }, change: AnswerChange) => {
      if (self._parent) enqueue.sendParent({ type: 'rows.merge', change })
    }),
  },
}).createMachine({
  id: 'questionnaireLive',
  context: ({ input }) => ({
    id: input.id,
    viewers: [],
    attempt: 0,
    retryAfterS: 0,
    pending: undefined,
    reading: null,
  }),
  type: 'parallel',
  states: {
    stream: {
      description: 'The live stream of the questionnaire: who is here, and what others change.',
      initial: 'connected',
      states: {
        connected: {
          description: 'The stream, opening or open; a loss or a refusal ends it and its presence.',
          invoke: { src: 'stream', input: ({ context }) => ({ id: context.id }) },
          initial: 'connecting',
          on: {
            'stream.closed': {
              target: 'waiting',
              actions: [
                assign(({ context }) => ({ attempt: context.attempt + 1, viewers: [] })),
                'tellViewers',
              ],
            },
            'stream.refused': {
              target: 'paused',
              actions: [
                assign(({ event }) => ({ retryAfterS: event.retryAfterS, viewers: [] })),
                'tellViewers',
                'tellPaused',
              ],
            },
          },
          states: {
            connecting: {
              description: 'Opening; back after a loss, every row is read again.',
              on: {
                'stream.open': [
                  // back after a loss: what changed meanwhile is read again
                  { guard: 'reconnected', target: 'open', actions: ['wantAll', 'resetAttempts'] },
                  { target: 'open' },
                ],
              },
            },
            open: {
              description: 'Who is looking, and what others change, as it happens.',
              on: {
                'stream.presence': {
                  actions: [assign(({ event }) => ({ viewers: event.viewers })), 'tellViewers'],
                },
                'stream.change': [
                  { guard: 'exported', actions: 'tellExports' },
                  { actions: { type: 'want', params: ({ event }) => event.change.question_ids } },
                ],
                // the server's listener was away: anything may have changed meanwhile
                'stream.resync': { actions: 'wantAll' },
              },
            },
          },
        },
        waiting: {
          description: 'The stream was lost: opened again after 1 s, 2 s, 4 s … at most 30 s.',
          after: { RECONNECT: 'connected' },
        },
        paused: {
          description:
            'The server refused the stream (too many open for this person): live updates are paused for the wait it named, then everything is read again.',
          after: { PAUSED: { target: 'connected', actions: ['wantAll', 'tellResumed'] } },
        },
      },
    },
    sync: {
      description: 'The rows others changed are read, one read at a time.',
      initial: 'idle',
      states: {
        idle: {
          description: 'Nothing to read; rows wanted meanwhile are read next.',
          always: {
            guard: 'hasPending',
            target: 'reading',
            actions: assign(({ context }) => ({
              reading: context.pending ?? null,
              pending: undefined,
            })),
          },
        },
        reading: {
          description: 'The changed rows are read and handed to the workspace.',
          invoke: {
            src: 'fetchRows',
            input: ({ context }) => ({ id: context.id, questionIds: context.reading }),
            onDone: {
              target: 'idle',
              actions: { type: 'handOver', params: ({ event }) => event.output },
            },
            // a failed read is left to the next change or reconnection
            onError: 'idle',
          },
        },
      },
    },
  },
})
