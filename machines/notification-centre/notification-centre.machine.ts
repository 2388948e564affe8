import { assign, emit, fromCallback, fromPromise, raise, setup } from 'xstate'
import type { Notification, NotificationList } from '../../contract/collaboration.ts'
import { errorMessage } from '../../contract/errors.ts'
import { mustBeProvidedIn } from '../actors.ts'
import { reconnected, streamDelays } from '../shared-actions.ts'
import type {
  MarkReadInput,
  NotificationCentreContext,
  NotificationCentreEmitted,
  NotificationCentreEvents,
  NotificationStreamEvent,
} from './notification-centre.types.ts'

export type * from './notification-centre.types.ts'

/**
 * The notification centre of the top bar (issue 29): the signed-in person's notifications, read
 * when the app opens, then kept current by a live stream of server-sent events. The stream says the
 * unread count when it opens and each new notification as it comes; each one reads the list again.
 * A lost stream is opened again after a back-off (1 s, 2 s, 4 s … 30 s), and the list is read again
 * then, since notifications may have come while it was away. A stream the server refuses (too many
 * open for this person) pauses live updates for the wait it names, then tries again; a `resync`
 * from the server (it may have missed events) reads the list again. Opening a notification or
 * "Mark all read" marks at once on screen and tells the server behind it; a refusal reads the
 * list again.
 */

const mustBeProvided = mustBeProvidedIn('notificationCentreMachine')

const readNow = (notification: Notification, at: string): Notification =>
  notification.read_at ? notification : { ...notification, read_at: at }

export const notificationCentreMachine = setup({
  types: {
    context: {} as NotificationCentreContext,
    events: {} as NotificationCentreEvents,
    emitted: {} as NotificationCentreEmitted,
  },
  actors: {
    loadNotifications: fromPromise<NotificationList, void>(mustBeProvided('loadNotifications')),
    markRead: fromPromise<{ unread: number }, MarkReadInput>(mustBeProvided('markRead')),
    stream: fromCallback<NotificationStreamEvent>(mustBeProvided('stream')),
  },
  delays: streamDelays,
  guards: {
    reconnected,
    hasToMark: ({ context }) => context.toMarkAll || context.toMark.length > 0,
    isUnread: ({ context, event }) =>
      event.type === 'notification.open' &&
      context.notifications.some((n) => n.id === event.id && !n.read_at),
  },
  actions: {
    markOneOnScreen: assign(({ context, event }) => {
      const id = (event as Extract<NotificationCentreEvents, { type: 'notification.open' }>).id
      const at = new Date().toISOString()
      return {
        notifications: context.notifications.map((n) => (n.id === id ? readNow(n, at) : n)),
        unread: Math.max(0, context.unread - 1),
        toMark: [...context.toMark, id],
      }
    }),
    markAllOnScreen: assign(({ context }) => {
      const at = new Date().toISOString()
      return {
        notifications: context.notifications.map((n) => readNow(n, at)),
        unread: 0,
        toMark: [],
        toMarkAll: true,
      }
    }),
    refreshList: raise({ type: 'refresh' }),
    resetAttempts: assign({ attempt: 0 }),
    announce: emit(({ event }) => ({
      type: 'notified' as const,
      notification: (event as Extract<NotificationStreamEvent, { type: 'stream.notification' }>)
        .notification,
    })),
  },
}).createMachine({
  id: 'notificationCentre',
  context: {
    notifications: [],
    unread: 0,
    error: null,
    attempt: 0,
    retryAfterS: 0,
    toMark: [],
    toMarkAll: false,
    marking: null,
  },
  type: 'parallel',
  states: {
    list: {
      description: 'The list as the server last gave it; read again on a new notification.',
      initial: 'loading',
      states: {
        loading: {
          description: 'The latest notifications are read.',
          tags: 'loading',
          on: { refresh: { target: 'loading', reenter: true } },
          invoke: {
            src: 'loadNotifications',
            onDone: {
              target: 'ready',
              actions: assign(({ event }) => ({
                notifications: event.output.results,
                unread: event.output.unread,
                error: null,
              })),
            },
            onError: {
              target: 'failed',
              actions: assign(({ event }) => ({
                error: errorMessage(event.error, 'Your notifications could not be read.'),
              })),
            },
          },
        },
        ready: { description: 'The notifications, newest first.', on: { refresh: 'loading' } },
        failed: {
          description: 'They could not be read: the error, read again on refresh.',
          on: { refresh: 'loading' },
        },
      },
      on: {
        'stream.notification': {
          target: '.loading',
          actions: [assign(({ event }) => ({ unread: event.unread })), 'announce'],
        },
        'stream.unread': { actions: assign(({ event }) => ({ unread: event.unread })) },
      },
    },
    stream: {
      description: 'The live stream of new notifications, opened again after a back-off.',
      initial: 'connected',
      states: {
        connected: {
          description: 'The stream, opening or open; a loss or a refusal ends it.',
          invoke: { src: 'stream' },
          initial: 'connecting',
          on: {
            'stream.closed': {
              target: 'waiting',
              actions: assign(({ context }) => ({ attempt: context.attempt + 1 })),
            },
            'stream.refused': {
              target: 'paused',
              actions: assign(({ event }) => ({ retryAfterS: event.retryAfterS })),
            },
          },
          states: {
            connecting: {
              description: 'Opening; back after a loss, the list is read again.',
              on: {
                'stream.open': [
                  {
                    // back after a loss: what came meanwhile is read again
                    guard: 'reconnected',
                    target: 'open',
                    actions: ['resetAttempts', 'refreshList'],
                  },
                  { target: 'open' },
                ],
              },
            },
            open: {
              description: 'New notifications come as they happen.',
              // the server's listener was away: what came meanwhile is read again
              on: { 'stream.resync': { actions: 'refreshList' } },
            },
          },
        },
        waiting: {
          description: 'The stream was lost: opened again after 1 s, 2 s, 4 s … at most 30 s.',
          after: { RECONNECT: 'connected' },
        },
        paused: {
          description:
            'The server refused the stream (too many open for this person): live updates are paused for the wait it named.',
          after: { PAUSED: { target: 'connected', actions: 'refreshList' } },
        },
      },
    },
    marking: {
      description: 'Marked read on screen at once; the server is told one call at a time.',
      initial: 'idle',
      on: {
        'notification.open': { guard: 'isUnread', actions: 'markOneOnScreen' },
        'read.all': { actions: 'markAllOnScreen' },
      },
      states: {
        idle: {
          description: 'Nothing is being saved; what was marked meanwhile is saved next.',
          always: {
            guard: 'hasToMark',
            target: 'saving',
            actions: assign(({ context }) => ({
              marking: context.toMarkAll ? { all: true as const } : { ids: context.toMark },
              toMark: [],
              toMarkAll: false,
            })),
          },
        },
        saving: {
          description: 'The server is told what was marked read.',
          invoke: {
            src: 'markRead',
            input: ({ context }) => context.marking ?? { ids: [] },
            onDone: {
              target: 'idle',
              actions: assign(({ context, event }) => ({
                marking: null,
                // the server's count, unless more was marked on screen meanwhile
                unread:
                  context.toMarkAll || context.toMark.length > 0
                    ? context.unread
                    : event.output.unread,
              })),
            },
            // the server did not take it: read the list as it is
            onError: { target: 'idle', actions: [assign({ marking: null }), 'refreshList'] },
          },
        },
      },
    },
    panel: {
      description: 'The bell’s panel.',
      initial: 'closed',
      states: {
        closed: { description: 'The panel is closed.', on: { 'panel.open': 'open' } },
        open: {
          description: 'The panel lists the notifications.',
          on: { 'panel.close': 'closed' },
        },
      },
    },
  },
})
