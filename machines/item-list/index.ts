import type { SnapshotFrom } from 'xstate'
import type { itemListMachine } from './item-list.machine.ts'

export * from './item-list.machine.ts'

type Snapshot = SnapshotFrom<typeof itemListMachine>

/** What item-list reads, through `useView`. */
export const itemListView = {
  items: (s: Snapshot) => s.context.results,
  count: (s: Snapshot) => s.context.count,
  query: (s: Snapshot) => s.context.query,
  /** Some filter narrows the list (its empty state says so). */
  filtered: (s: Snapshot) =>
    Boolean(
      s.context.query.q ||
        s.context.query.freshness ||
        s.context.query.owner ||
        s.context.query.product !== null,
    ),
  loading: (s: Snapshot) =>
    s.hasTag('loading') && s.context.count === 0 && !s.context.results.length,
  error: (s: Snapshot) => (s.matches('failed') ? s.context.error : null),
}
