import type { SnapshotFrom } from 'xstate'
import { STREAM_TEXTS } from '../../contract/streams.ts'
import type { notificationCentreMachine } from './notification-centre.machine.ts'

export * from './notification-centre.machine.ts'

type Snapshot = SnapshotFrom<typeof notificationCentreMachine>

/** The texts of the bell and its panel. */
export const NOTIFICATION_CENTRE_TEXTS = {
  title: 'Notifications',
  markAll: 'Mark all read',
  empty:
    'Nothing yet. You will be told here when a question is assigned to you, someone mentions you, or your answers are reviewed.',
  reconnecting: 'Reconnecting… new notifications will show when it is back.',
  paused: `${STREAM_TEXTS.paused}: too many tabs of Quire are open. New notifications will show when one is closed.`,
  preferences: 'Choose how you are told',
} as const

/** The bell's count: up to 99, then '99+'. */
export const unreadBadge = (unread: number) => (unread > 99 ? '99+' : String(unread))

/** The bell's accessible name, with the count. */
export const bellLabel = (unread: number) =>
  unread === 0 ? 'Notifications' : `Notifications, ${unread} unread`

/** What the bell and its panel read, through `useView`. */
export const notificationCentreView = {
  notifications: (s: Snapshot) => s.context.notifications,
  unread: (s: Snapshot) => s.context.unread,
  error: (s: Snapshot) => (s.matches({ list: 'failed' }) ? s.context.error : null),
  /** The first read, before anything is shown. */
  loading: (s: Snapshot) => s.hasTag('loading') && s.context.notifications.length === 0,
  open: (s: Snapshot) => s.matches({ panel: 'open' }),
  /** The live stream is away and will be opened again. */
  reconnecting: (s: Snapshot) => s.matches({ stream: 'waiting' }),
  /** The server refused the stream: live updates are paused for a while. */
  paused: (s: Snapshot) => s.matches({ stream: 'paused' }),
}
