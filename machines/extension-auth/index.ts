import type { SnapshotFrom } from 'xstate'
import type { extensionAuthMachine } from './extension-auth.machine.ts'

export * from './extension-auth.machine.ts'
export type * from './extension-auth.types.ts'

type Snapshot = SnapshotFrom<typeof extensionAuthMachine>

/** checking, not_authenticated, redirecting or error (spec section 5). */
export const selectScreen = (s: Snapshot) =>
  s.matches('error')
    ? 'error'
    : s.matches('not_authenticated')
      ? 'not_authenticated'
      : s.matches('redirecting') || s.matches('handedOff')
        ? 'redirecting'
        : 'checking'
export const selectError = (s: Snapshot) => s.context.error
export const selectSecurity = (s: Snapshot) => s.context.security
