import * as z from 'zod/mini'
import {
  notificationListQuerySchema,
  notificationListSchema,
  notificationPreferencesSchema,
  notificationPreferencesUpdateSchema,
  notificationReadSchema,
  unsubscribeQuerySchema,
} from '../collaboration.ts'
import { paths } from '../paths.ts'
import { type OperationDoc, type OperationDocs, op } from './operation.ts'

const N = paths.notifications

const savePreferences: OperationDoc = {
  summary: 'Change how I am told of each kind of notification; the kinds not given stay',
  access: 'read',
  body: notificationPreferencesUpdateSchema,
  response: notificationPreferencesSchema,
}

/** My notifications, how I am told, and the public unsubscribe link of mailed ones. */
export const notificationOperations: OperationDocs = {
  [op('GET', N.list)]: {
    summary: 'My notifications, newest first, with how many are unread',
    access: 'read',
    query: notificationListQuerySchema,
    response: notificationListSchema,
  },
  [op('POST', N.read)]: {
    summary: 'Mark some of my notifications read, or all of them',
    access: 'read',
    body: notificationReadSchema,
    response: z.object({ read: z.int(), unread: z.int() }),
  },
  [op('GET', N.stream)]: {
    summary: 'My new notifications as they come, each with the unread count',
    access: 'read',
    produces: 'event-stream',
  },
  [op('GET', paths.me.notificationPreferences)]: {
    summary: 'How I am told of each kind of notification',
    access: 'read',
    response: notificationPreferencesSchema,
  },
  [op('PUT', paths.me.notificationPreferences)]: savePreferences,
  [op('POST', paths.me.notificationPreferences)]: savePreferences,
  [op('GET', N.unsubscribe)]: {
    summary: 'Whether a mailed unsubscribe link is valid, and what it stops',
    access: 'public',
    query: unsubscribeQuerySchema,
    response: z.object({ valid: z.boolean(), kind: z.nullable(z.string()) }),
  },
  [op('POST', N.unsubscribe)]: {
    summary: 'Unsubscribe with a mailed link’s token (the mail client’s one-click too)',
    access: 'public',
    query: unsubscribeQuerySchema,
    response: z.object({ message: z.string() }),
  },
}
