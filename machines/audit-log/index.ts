import type { SnapshotFrom } from 'xstate'
import type { auditLogMachine } from './audit-log.machine.ts'

export * from './audit-log.machine.ts'

type Snapshot = SnapshotFrom<typeof auditLogMachine>

/** What Settings → Audit log reads, through `useView`. */
export const auditLogView = {
  events: (s: Snapshot) => s.context.results,
  count: (s: Snapshot) => s.context.count,
  query: (s: Snapshot) => s.context.query,
  loading: (s: Snapshot) => s.hasTag('loading') && !s.context.results.length,
  downloading: (s: Snapshot) => s.hasTag('busy'),
  error: (s: Snapshot) => s.context.error,
  failed: (s: Snapshot) => s.matches('failed'),
}
