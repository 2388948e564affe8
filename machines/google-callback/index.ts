import type { SnapshotFrom } from 'xstate'
import type { googleCallbackMachine } from './google-callback.machine.ts'

export * from './google-callback.machine.ts'

type Snapshot = SnapshotFrom<typeof googleCallbackMachine>

export const selectFailed = (s: Snapshot) =>
  s.matches('failed') || s.matches('forbidden') || (s.matches('left') && s.context.error !== null)
export const selectError = (s: Snapshot) => s.context.error
