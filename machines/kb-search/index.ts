import type { SnapshotFrom } from 'xstate'
import type { kbSearchMachine } from './kb-search.machine.ts'

export * from './kb-search.machine.ts'

type Snapshot = SnapshotFrom<typeof kbSearchMachine>

/** What search-panel reads, through `useView`. */
export const kbSearchView = {
  q: (s: Snapshot) => s.context.q,
  found: (s: Snapshot) => s.context.results,
  error: (s: Snapshot) => s.context.error,
  searching: (s: Snapshot) => s.hasTag('loading'),
  shown: (s: Snapshot) => s.matches('shown'),
}
/** The box holds words: its results stand in for the knowledge base's sections (issue 30). */
export const selectSearching = (s: Snapshot) => s.context.q !== ''
