import type { SnapshotFrom } from 'xstate'
import type { apiKeysMachine } from './api-keys.machine.ts'

export * from './api-keys.machine.ts'

type Snapshot = SnapshotFrom<typeof apiKeysMachine>

/** What Settings → API keys reads. */
export const apiKeysView = {
  keys: (s: Snapshot) => s.context.keys,
  form: (s: Snapshot) => s.context.form,
  created: (s: Snapshot) => s.context.created,
  revoking: (s: Snapshot) => s.context.revoking,
  error: (s: Snapshot) => s.context.error,
  editing: (s: Snapshot) => s.matches('editing') || s.matches('creating'),
  confirming: (s: Snapshot) => s.matches('confirming') || s.matches('revokingKey'),
  loading: (s: Snapshot) => s.hasTag('loading'),
  busy: (s: Snapshot) => s.hasTag('busy'),
  failed: (s: Snapshot) => s.matches('failed'),
}
