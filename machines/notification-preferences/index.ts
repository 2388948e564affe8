import type { SnapshotFrom } from 'xstate'
import type { notificationPreferencesMachine } from './notification-preferences.machine.ts'

export * from './notification-preferences.machine.ts'

type Snapshot = SnapshotFrom<typeof notificationPreferencesMachine>

/** The texts of Settings → Notifications. */
export const NOTIFICATION_PREFERENCES_TEXTS = {
  title: 'Notifications',
  description:
    'How you are told of each kind of work. Due and overdue work comes by email as one daily summary.',
  saving: 'Saving…',
  saved: 'Saved',
} as const

/** What the preferences section reads, through `useView`. */
export const notificationPreferencesView = {
  preferences: (s: Snapshot) => s.context.preferences,
  error: (s: Snapshot) => s.context.error,
  failed: (s: Snapshot) => s.matches('failed'),
  saving: (s: Snapshot) => s.hasTag('saving'),
  saved: (s: Snapshot) => s.matches({ ready: 'saved' }),
}
