import type { Notification } from '../../contract/collaboration.ts'

/** The notification centre's context, events, what it emits and what a marking sends. */

export type NotificationStreamEvent =
  | { type: 'stream.open' }
  | { type: 'stream.unread'; unread: number }
  | { type: 'stream.notification'; notification: Notification; unread: number }
  | { type: 'stream.closed' }
  | { type: 'stream.refused'; retryAfterS: number }
  | { type: 'stream.resync' }

export type NotificationCentreEvents =
  | NotificationStreamEvent
  | { type: 'panel.open' }
  | { type: 'panel.close' }
  | { type: 'refresh' }
  | { type: 'notification.open'; id: number }
  | { type: 'read.all' }

export type NotificationCentreEmitted = { type: 'notified'; notification: Notification }

/** What is marked read: some notifications, or all of them. */
export type MarkReadInput = { ids: number[] } | { all: true }

export interface NotificationCentreContext {
  notifications: Notification[]
  unread: number
  error: string | null
  /** Reconnections tried since the stream was last open. */
  attempt: number
  /** Seconds the server asked to wait after refusing the stream. */
  retryAfterS: number
  /** Marked read on screen, not yet told to the server. */
  toMark: number[]
  toMarkAll: boolean
  /** What the running call tells the server. */
  marking: MarkReadInput | null
}
