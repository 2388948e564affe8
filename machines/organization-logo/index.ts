import type { SnapshotFrom } from 'xstate'
import type { organizationLogoMachine } from './organization-logo.machine.ts'

export * from './organization-logo.machine.ts'

type Snapshot = SnapshotFrom<typeof organizationLogoMachine>

/** What the logo field reads, through `useView`. */
export const organizationLogoView = {
  url: (s: Snapshot) => s.context.url,
  error: (s: Snapshot) => s.context.error,
  busy: (s: Snapshot) => s.hasTag('busy'),
}
