import { fromCallback, fromPromise } from 'xstate'
import * as z from 'zod/mini'
import {
  type MyAssignments,
  myAssignmentsSchema,
  type NotificationList,
  notificationListSchema,
  notificationPreferencesSchema,
  notificationSchema,
} from '../../contract/collaboration.ts'
import { paths } from '../../contract/paths.ts'
import { myWorkMachine } from '../../machines/my-work/index.ts'
import {
  type MarkReadInput,
  type NotificationStreamEvent,
  notificationCentreMachine,
} from '../../machines/notification-centre/index.ts'
import {
  type Channels,
  notificationPreferencesMachine,
} from '../../machines/notification-preferences/index.ts'
import { type UnsubscribeFailure, unsubscribeMachine } from '../../machines/unsubscribe/index.ts'
import { type ApiClient, ApiError, api } from './client.ts'
import { followStream } from './event-stream.ts'

/**
 * What is mine (issue 29): my notifications and their live stream, my assignments, how I am told,
 * and the public unsubscribe of a mailed link.
 */

const readSchema = z.object({ unread: z.int() })
const unreadEventSchema = z.object({ unread: z.int() })
const notificationEventSchema = z.object({ notification: notificationSchema, unread: z.int() })
const unsubscribedSchema = z.object({ message: z.string() })

export function inboxActors(client: ApiClient = api) {
  return {
    loadNotifications: fromPromise<NotificationList, void>(async ({ signal }) =>
      client.get(paths.notifications.list, notificationListSchema, { signal }),
    ),
    markRead: fromPromise<{ unread: number }, MarkReadInput>(async ({ input }) =>
      client.post(paths.notifications.read, input, readSchema),
    ),
    stream: fromCallback<NotificationStreamEvent>(({ sendBack }) =>
      followStream(client, paths.notifications.stream, sendBack, (type, data) => {
        if (type === 'unread') {
          const parsed = z.safeParse(unreadEventSchema, data)
          if (parsed.success) sendBack({ type: 'stream.unread', unread: parsed.data.unread })
        } else if (type === 'notification') {
          const parsed = z.safeParse(notificationEventSchema, data)
          if (parsed.success) sendBack({ type: 'stream.notification', ...parsed.data })
        }
      }),
    ),
    loadMyWork: fromPromise<MyAssignments, void>(async ({ signal }) =>
      client.get(paths.me.assignments, myAssignmentsSchema, { signal }),
    ),
    loadPreferences: fromPromise<Channels, void>(async ({ signal }) =>
      client
        .get(paths.me.notificationPreferences, notificationPreferencesSchema, { signal })
        .then((body) => body.preferences),
    ),
    savePreferences: fromPromise<Channels, Channels>(async ({ input }) =>
      client
        .request(paths.me.notificationPreferences, notificationPreferencesSchema, {
          method: 'PUT',
          body: { preferences: input },
        })
        .then((body) => body.preferences),
    ),
    unsubscribe: fromPromise<{ message: string }, { token: string }>(async ({ input }) => {
      const path = `${paths.notifications.unsubscribe}?token=${encodeURIComponent(input.token)}`
      try {
        return await client.post(path, undefined, unsubscribedSchema)
      } catch (error) {
        const failure: UnsubscribeFailure =
          error instanceof ApiError && error.status >= 400 && error.status < 500
            ? { invalid: true, message: error.message }
            : { invalid: false, message: error instanceof Error ? error.message : '' }
        throw failure
      }
    }),
  }
}

/** The machines of what is mine with the real actors; tests pass their own. */
export function createInboxLogic(actors = inboxActors()) {
  return {
    notifications: notificationCentreMachine.provide({ actors }),
    myWork: myWorkMachine.provide({ actors }),
    preferences: notificationPreferencesMachine.provide({ actors }),
    unsubscribe: unsubscribeMachine.provide({ actors }),
  }
}
export type InboxLogic = ReturnType<typeof createInboxLogic>
