import type { SnapshotFrom } from 'xstate'
import { highItems, type portalPanelMachine } from './portal-panel.machine.ts'

export * from './portal-panel.machine.ts'

type Snapshot = SnapshotFrom<typeof portalPanelMachine>

/** What the extension's portal panel reads, through `useSelector`. */
export const portalPanelView = {
  screen: (s: Snapshot) =>
    s.matches('checking')
      ? 'checking'
      : s.matches('signedOut') || s.matches('connecting')
        ? 'signedOut'
        : s.matches('expired') || s.matches('reconnecting')
          ? 'expired'
          : s.matches('idle')
            ? 'idle'
            : s.matches('reading') || s.matches('drafting')
              ? 'working'
              : s.matches('failed')
                ? 'failed'
                : 'review',
  step: (s: Snapshot) =>
    s.matches('reading') ? 'reading' : s.matches('drafting') ? 'drafting' : null,
  busy: (s: Snapshot) => s.hasTag('busy'),
  highCount: (s: Snapshot) => highItems(s.context).length,
  confirming: (s: Snapshot) => s.matches('confirmingOverwrite'),
  /** Why connecting, reading, drafting or filling failed: shown on the screen it leads to. */
  error: (s: Snapshot) => s.context.error,
}
