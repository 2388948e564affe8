import { describe, expect, test } from 'vitest'
import {
  type AnyEventObject,
  createActor,
  createMachine,
  fromCallback,
  fromPromise,
  sendTo,
} from 'xstate'
import type { AnswerChange } from '../../contract/questionnaires.ts'
import { streamRetryDelay } from '../../machines/constants.ts'
import {
  type FetchRowsInput,
  type LiveStreamEvent,
  questionnaireLiveMachine,
} from '../../machines/questionnaire-live/index.ts'
import { changeOf, rowOf } from '../fixtures/answer-rows.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const pending = pendingActors(questionnaireLiveMachine)
const ada = { id: '1', name: 'Ada Lovelace', email: 'ada@example.com' }
const events: AnyEventObject[] = [
  { type: 'stream.open' },
  { type: 'stream.presence', viewers: [ada] },
  { type: 'stream.change', change: { kind: 'answers', question_ids: [1], by: 2, revision: 3 } },
  { type: 'stream.change', change: { kind: 'work', question_ids: null, by: 2, revision: null } },
  { type: 'stream.change', change: { kind: 'export', question_ids: [], by: 2, revision: null } },
  { type: 'stream.closed' },
  { type: 'stream.refused', retryAfterS: 30 },
  { type: 'stream.resync' },
  { type: 'xstate.done.actor.0.questionnaireLive.sync.reading', output: changeOf([rowOf(1)]) },
  { type: 'xstate.error.actor.0.questionnaireLive.sync.reading', error: new Error('offline') },
]

describe('questionnaireLiveMachine', () => {
  testEveryPath(pending, events, {
    input: { id: 7 },
    // no selectors: the workspace hears what it tells. Viewers are known only while the stream
    // is open, and a change asked for never waits while no read runs
    assertState: (s) => {
      if (!s.matches({ stream: { connected: 'open' } })) expect(s.context.viewers).toEqual([])
      if (s.matches({ sync: 'idle' })) expect(s.context.pending).toBeUndefined()
    },
    identity: (s) => [s.context.attempt > 0, s.context.pending === undefined],
  })

  test('backs off 1 s, 2 s, 4 s … and never waits more than 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(streamRetryDelay)).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000,
    ])
  })

  test('reads the rows a change names and hands them to the workspace, tells it of finished exports; after a loss, all of them', async () => {
    const asked: (number[] | null)[] = []
    const merged: AnswerChange[] = []
    let exportsChanged = 0
    let push: (event: LiveStreamEvent) => void = () => {}
    const live = questionnaireLiveMachine.provide({
      actors: {
        stream: fromCallback<LiveStreamEvent, { id: number }>(({ sendBack }) => {
          push = sendBack
        }),
        fetchRows: fromPromise<AnswerChange, FetchRowsInput>(async ({ input }) => {
          asked.push(input.questionIds)
          return changeOf([rowOf(1)])
        }),
      },
      delays: { RECONNECT: 1 },
    })
    // a parent that keeps what the live machine sends it
    const parent = createMachine({
      invoke: { id: 'live', src: live, input: { id: 7 } },
      on: {
        'rows.merge': { actions: ({ event }) => merged.push(event.change) },
        'presence.set': {},
        'exports.changed': { actions: () => void exportsChanged++ },
        forward: { actions: sendTo('live', ({ event }) => event.inner) },
      },
    })
    const actor = createActor(parent).start()
    push({ type: 'stream.open' })
    push({
      type: 'stream.change',
      change: { kind: 'answers', question_ids: [4, 5], by: 2, revision: 9 },
    })
    await new Promise((r) => setTimeout(r, 5))
    expect(asked).toEqual([[4, 5]])
    expect(merged).toHaveLength(1)
    // a finished export changes no row: the workspace is told, nothing is read (issue 37)
    push({
      type: 'stream.change',
      change: { kind: 'export', question_ids: [], by: 2, revision: null },
    })
    await new Promise((r) => setTimeout(r, 5))
    expect(exportsChanged).toBe(1)
    expect(asked).toEqual([[4, 5]])
    push({ type: 'stream.closed' })
    await new Promise((r) => setTimeout(r, 20))
    push({ type: 'stream.open' })
    await new Promise((r) => setTimeout(r, 5))
    expect(asked).toEqual([[4, 5], null])
    actor.stop()
  })

  test('a refused stream pauses live updates and tells the workspace; after the wait it opens again and reads everything; resync reads everything', async () => {
    const asked: (number[] | null)[] = []
    const paused: boolean[] = []
    let streams = 0
    let push: (event: LiveStreamEvent) => void = () => {}
    const live = questionnaireLiveMachine.provide({
      actors: {
        stream: fromCallback<LiveStreamEvent, { id: number }>(({ sendBack }) => {
          streams += 1
          push = sendBack
        }),
        fetchRows: fromPromise<AnswerChange, FetchRowsInput>(async ({ input }) => {
          asked.push(input.questionIds)
          return changeOf([rowOf(1)])
        }),
      },
      delays: { PAUSED: ({ context }) => context.retryAfterS },
    })
    const parent = createMachine({
      invoke: { id: 'live', src: live, input: { id: 7 } },
      on: {
        'rows.merge': {},
        'presence.set': {},
        'live.paused': { actions: ({ event }) => void paused.push(event.paused) },
      },
    })
    const actor = createActor(parent).start()
    push({ type: 'stream.refused', retryAfterS: 8 })
    const child = actor.getSnapshot().children.live
    expect(child?.getSnapshot().matches({ stream: 'paused' })).toBe(true)
    expect(paused).toEqual([true])
    await new Promise((r) => setTimeout(r, 30))
    expect(streams).toBe(2)
    expect(paused).toEqual([true, false])
    expect(asked).toEqual([null])
    push({ type: 'stream.open' })
    push({ type: 'stream.resync' })
    await new Promise((r) => setTimeout(r, 5))
    expect(asked).toEqual([null, null])
    actor.stop()
  })
})
