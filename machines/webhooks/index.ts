import type { SnapshotFrom } from 'xstate'
import type { webhooksMachine } from './webhooks.machine.ts'

export * from './webhooks.machine.ts'

type Snapshot = SnapshotFrom<typeof webhooksMachine>

/** What Settings → Webhooks reads. */
export const webhooksView = {
  hooks: (s: Snapshot) => s.context.hooks,
  form: (s: Snapshot) => s.context.form,
  created: (s: Snapshot) => s.context.created,
  selected: (s: Snapshot) => s.context.selected,
  deliveries: (s: Snapshot) => s.context.deliveries,
  error: (s: Snapshot) => s.context.error,
  editing: (s: Snapshot) => s.matches('editing') || s.matches('creating'),
  confirming: (s: Snapshot) => s.matches('confirming') || s.matches('removing'),
  log: (s: Snapshot) => s.matches('log'),
  loading: (s: Snapshot) => s.hasTag('loading'),
  busy: (s: Snapshot) => s.hasTag('busy'),
  failed: (s: Snapshot) => s.matches('failed'),
}
