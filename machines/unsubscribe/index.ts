import type { SnapshotFrom } from 'xstate'
import type { unsubscribeMachine } from './unsubscribe.machine.ts'

export * from './unsubscribe.machine.ts'

type Snapshot = SnapshotFrom<typeof unsubscribeMachine>

/** What the unsubscribe page reads, through `useView`. */
export const unsubscribeView = {
  screen: (s: Snapshot) =>
    s.matches('done')
      ? ('done' as const)
      : s.matches('invalid')
        ? ('invalid' as const)
        : s.matches('failed')
          ? ('failed' as const)
          : ('working' as const),
  message: (s: Snapshot) => s.context.message,
}
