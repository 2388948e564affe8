import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromCallback, fromPromise } from 'xstate'
import type { Notification, NotificationList } from '../../contract/collaboration.ts'
import {
  STREAM_RETRY_MAX_MS,
  streamPausedDelay,
  streamRetryDelay,
} from '../../machines/constants.ts'
import * as view from '../../machines/notification-centre/index.ts'
import {
  bellLabel,
  type MarkReadInput,
  type NotificationStreamEvent,
  notificationCentreMachine,
  notificationCentreView,
  unreadBadge,
} from '../../machines/notification-centre/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const ada = { id: '2', name: 'Ada Lovelace', email: 'ada@example.com' }
const notificationOf = (id: number, read = false): Notification => ({
  id,
  kind: 'assigned',
  text: `Ada Lovelace assigned you question ${id} of CAIQ v4`,
  actor: ada,
  questionnaire_id: 7,
  question_id: 100 + id,
  created_at: '2025-03-01T10:00:00.000Z',
  read_at: read ? '2025-03-01T11:00:00.000Z' : null,
})

const pending = pendingActors(notificationCentreMachine)
const at = (kind: 'done' | 'error', path: string) =>
  `xstate.${kind}.actor.0.notificationCentre.${path}`
const events: AnyEventObject[] = [
  { type: 'stream.open' },
  { type: 'stream.unread', unread: 3 },
  { type: 'stream.notification', notification: notificationOf(9), unread: 2 },
  { type: 'stream.closed' },
  { type: 'stream.refused', retryAfterS: 30 },
  { type: 'stream.resync' },
  { type: 'panel.open' },
  { type: 'panel.close' },
  { type: 'refresh' },
  { type: 'notification.open', id: 1 },
  { type: 'read.all' },
  {
    type: at('done', 'list.loading'),
    output: { unread: 1, results: [notificationOf(1), notificationOf(2, true)] },
  },
  { type: at('error', 'list.loading'), error: new Error('offline') },
  { type: at('done', 'marking.saving'), output: { unread: 0 } },
  { type: at('error', 'marking.saving'), error: new Error('offline') },
]

const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms))

/** The centre with a stream the test drives: how often it read the list and opened the stream. */
function drivenCentre(
  delays: NonNullable<Parameters<typeof notificationCentreMachine.provide>[0]['delays']>,
) {
  const seen = { reads: 0, streams: 0, push: (_event: NotificationStreamEvent) => {} }
  const actor = createActor(
    notificationCentreMachine.provide({
      actors: {
        loadNotifications: fromPromise<NotificationList, void>(async () => {
          seen.reads += 1
          return { unread: seen.reads, results: [notificationOf(seen.reads)] }
        }),
        markRead: fromPromise<{ unread: number }, MarkReadInput>(async () => ({ unread: 0 })),
        stream: fromCallback<NotificationStreamEvent>(({ sendBack }) => {
          seen.streams += 1
          seen.push = sendBack
        }),
      },
      delays,
    }),
  ).start()
  return { actor, seen }
}

describe('notificationCentreMachine', () => {
  testEveryPath(pending, events, {
    view,
    // the default check found that `loading` is the first load only: a reload keeps what was
    // read on screen, with no loading sign, while the 'loading' tag is on
    except: { tags: ['loading'] },
    assertState: (s) => {
      expect(view.notificationCentreView.loading(s)).toBe(
        s.hasTag('loading') && view.notificationCentreView.notifications(s).length === 0,
      )
    },
    identity: (s) => [
      s.context.attempt > 0,
      s.context.notifications.some((n) => !n.read_at),
      s.context.toMarkAll || s.context.toMark.length > 0,
    ],
  })

  test('reconnects after 1 s, 2 s, 4 s … never waiting more than 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 9].map(streamRetryDelay)).toEqual([
      1_000,
      2_000,
      4_000,
      8_000,
      16_000,
      30_000,
      STREAM_RETRY_MAX_MS,
    ])
  })

  test('reads the list again on each new notification and after a lost stream, and tells who listens', async () => {
    const { actor, seen } = drivenCentre({ RECONNECT: 1 })
    const told: Notification[] = []
    actor.on('notified', (event) => told.push(event.notification))
    await tick()
    expect(seen.reads).toBe(1)
    seen.push({ type: 'stream.open' })
    seen.push({ type: 'stream.unread', unread: 4 })
    expect(actor.getSnapshot().context.unread).toBe(4)

    seen.push({ type: 'stream.notification', notification: notificationOf(5), unread: 5 })
    expect(told.map((n) => n.id)).toEqual([5])
    await tick()
    expect(seen.reads).toBe(2)

    // lost: opened again after the back-off, and the list read again once open
    seen.push({ type: 'stream.closed' })
    expect(notificationCentreView.reconnecting(actor.getSnapshot())).toBe(true)
    await tick(5)
    expect(seen.streams).toBe(2)
    seen.push({ type: 'stream.open' })
    await tick()
    expect(seen.reads).toBe(3)
    expect(actor.getSnapshot().context.attempt).toBe(0)
    actor.stop()
  })

  test('a refused stream pauses live updates for the wait the server named, then opens again and reads the list; resync reads it again', async () => {
    const { actor, seen } = drivenCentre({ PAUSED: ({ context }) => context.retryAfterS })
    await tick()
    expect(seen.reads).toBe(1)
    seen.push({ type: 'stream.refused', retryAfterS: 7 })
    expect(notificationCentreView.paused(actor.getSnapshot())).toBe(true)
    expect(notificationCentreView.reconnecting(actor.getSnapshot())).toBe(false)
    expect(actor.getSnapshot().context.retryAfterS).toBe(7)
    await tick(20)
    expect(seen.streams).toBe(2)
    expect(seen.reads).toBe(2)
    expect(notificationCentreView.paused(actor.getSnapshot())).toBe(false)
    seen.push({ type: 'stream.open' })
    seen.push({ type: 'stream.resync' })
    await tick()
    expect(seen.reads).toBe(3)
    actor.stop()
  })

  test('the pause is the server’s Retry-After, never under 10 s', () => {
    expect([0, 5, 30, 120].map(streamPausedDelay)).toEqual([10_000, 10_000, 30_000, 120_000])
  })

  test('opening a notification marks it read at once; mark all read marks every one', async () => {
    const told: MarkReadInput[] = []
    const actor = createActor(
      notificationCentreMachine.provide({
        actors: {
          loadNotifications: fromPromise<NotificationList, void>(async () => ({
            unread: 2,
            results: [notificationOf(1), notificationOf(2), notificationOf(3, true)],
          })),
          markRead: fromPromise<{ unread: number }, MarkReadInput>(async ({ input }) => {
            told.push(input)
            return { unread: 'all' in input ? 0 : 1 }
          }),
          stream: fromCallback(() => {}),
        },
      }),
    ).start()
    await tick()
    actor.send({ type: 'panel.open' })
    expect(notificationCentreView.open(actor.getSnapshot())).toBe(true)
    actor.send({ type: 'notification.open', id: 1 })
    const after = actor.getSnapshot()
    expect(after.context.unread).toBe(1)
    expect(after.context.notifications[0]?.read_at).not.toBeNull()
    // opening one already read tells nobody
    actor.send({ type: 'notification.open', id: 3 })
    await tick()
    expect(told).toEqual([{ ids: [1] }])

    actor.send({ type: 'read.all' })
    expect(actor.getSnapshot().context.notifications.every((n) => n.read_at)).toBe(true)
    await tick()
    expect(told).toEqual([{ ids: [1] }, { all: true }])
    expect(actor.getSnapshot().context.unread).toBe(0)
    actor.stop()
  })

  test('a refused mark reads the list as the server has it', async () => {
    let reads = 0
    const actor = createActor(
      notificationCentreMachine.provide({
        actors: {
          loadNotifications: fromPromise<NotificationList, void>(async () => {
            reads += 1
            return { unread: 1, results: [notificationOf(1)] }
          }),
          markRead: fromPromise<{ unread: number }, MarkReadInput>(async () => {
            throw new Error('offline')
          }),
          stream: fromCallback(() => {}),
        },
      }),
    ).start()
    await tick()
    actor.send({ type: 'notification.open', id: 1 })
    await tick()
    await tick()
    expect(reads).toBe(2)
    expect(actor.getSnapshot().context.unread).toBe(1)
    actor.stop()
  })

  test('the bell says the count, 99+ past 99', () => {
    expect(unreadBadge(3)).toBe('3')
    expect(unreadBadge(120)).toBe('99+')
    expect(bellLabel(0)).toBe('Notifications')
    expect(bellLabel(2)).toBe('Notifications, 2 unread')
  })
})
