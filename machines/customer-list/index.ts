import type { SnapshotFrom } from 'xstate'
import type { customerListMachine } from './customer-list.machine.ts'

export * from './customer-list.machine.ts'
export type * from './customer-list.types.ts'

type Snapshot = SnapshotFrom<typeof customerListMachine>

/** The customers, for the choices of a filter or a select. */
export const selectCustomers = (s: Snapshot) => s.context.customers

/** What the customers page reads, through `useView`. */
export const customerListView = {
  customers: selectCustomers,
  loading: (s: Snapshot) => s.hasTag('loading') && !s.context.loaded,
  error: (s: Snapshot) => (s.matches({ list: 'failed' }) ? s.context.error : null),
  creating: (s: Snapshot) => !s.matches({ create: 'closed' }),
  saving: (s: Snapshot) => s.matches({ create: 'saving' }),
  values: (s: Snapshot) => s.context.values,
  errors: (s: Snapshot) => s.context.errors,
  failure: (s: Snapshot) => s.context.failure,
}
