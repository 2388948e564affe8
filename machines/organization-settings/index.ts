import type { SnapshotFrom } from 'xstate'
import type { organizationSettingsMachine } from './organization-settings.machine.ts'

export * from './organization-settings.machine.ts'

type Snapshot = SnapshotFrom<typeof organizationSettingsMachine>

/** What Settings → Organisation reads, through `useView`. */
export const organizationSettingsView = {
  form: (s: Snapshot) => s.context.form,
  domain: (s: Snapshot) => s.context.domain,
  loading: (s: Snapshot) => s.hasTag('loading'),
  saving: (s: Snapshot) => s.hasTag('busy'),
  failed: (s: Snapshot) => s.matches('failed'),
  error: (s: Snapshot) => s.context.error,
  changed: (s: Snapshot) =>
    s.context.saved !== null &&
    JSON.stringify(s.context.form) !==
      JSON.stringify({
        name: s.context.saved.name,
        answer_tone: s.context.saved.answer_tone,
        answer_length: s.context.saved.answer_length,
        verified_domains: s.context.saved.verified_domains,
      }),
}
