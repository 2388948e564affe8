import type { SnapshotFrom } from 'xstate'
import type { customerPageMachine } from './customer-page.machine.ts'

export * from './customer-page.machine.ts'

type Snapshot = SnapshotFrom<typeof customerPageMachine>

/** What the customer's page reads, through `useView`. */
export const customerPageView = {
  loading: (s: Snapshot) => s.hasTag('loading'),
  error: (s: Snapshot) => s.context.error,
  customer: (s: Snapshot) => s.context.page?.customer ?? null,
  years: (s: Snapshot) => s.context.years,
}
