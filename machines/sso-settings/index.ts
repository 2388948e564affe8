import type { SnapshotFrom } from 'xstate'
import type { ssoSettingsMachine } from './sso-settings.machine.ts'

export * from './sso-settings.machine.ts'

type Snapshot = SnapshotFrom<typeof ssoSettingsMachine>

/** What Settings → Single sign-on reads, through `useView`. */
export const ssoSettingsView = {
  form: (s: Snapshot) => s.context.form,
  saved: (s: Snapshot) => s.context.saved,
  error: (s: Snapshot) => s.context.error,
  tested: (s: Snapshot) => s.context.tested,
  loading: (s: Snapshot) => s.hasTag('loading'),
  busy: (s: Snapshot) => s.hasTag('busy'),
  testing: (s: Snapshot) => s.matches('testing'),
  failed: (s: Snapshot) => s.matches('failed'),
}
