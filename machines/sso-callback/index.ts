import type { SnapshotFrom } from 'xstate'
import type { ssoCallbackMachine } from './sso-callback.machine.ts'

export * from './sso-callback.machine.ts'

type Snapshot = SnapshotFrom<typeof ssoCallbackMachine>

/** The page's state: processing, success or error (spec section 2). */
export const selectScreen = (s: Snapshot) =>
  s.matches('error') ? 'error' : s.matches('processing') ? 'processing' : 'success'
export const selectError = (s: Snapshot) => s.context.error
