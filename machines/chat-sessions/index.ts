import type { SnapshotFrom } from 'xstate'
import type { chatSessionsMachine } from './chat-sessions.machine.ts'

export * from './chat-sessions.machine.ts'
export type * from './chat-sessions.types.ts'

type Snapshot = SnapshotFrom<typeof chatSessionsMachine>

/** What the conversation list reads, through `useView`. */
export const chatSessionsView = {
  sessions: (s: Snapshot) => s.context.sessions,
  q: (s: Snapshot) => s.context.q,
  selectedId: (s: Snapshot) => s.context.selectedId,
  error: (s: Snapshot) => s.context.error,
  loading: (s: Snapshot) => s.hasTag('loading'),
  busy: (s: Snapshot) => s.hasTag('busy'),
  failed: (s: Snapshot) => s.matches('failed'),
}
