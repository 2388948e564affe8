import type { SnapshotFrom } from 'xstate'
import type { LibraryHealth } from '../../contract/questionnaires.ts'
import type { libraryHealthMachine } from './library-health.machine.ts'

export * from './library-health.machine.ts'

type Snapshot = SnapshotFrom<typeof libraryHealthMachine>
const NO_GROUPS: LibraryHealth['groups'] = []
const NO_COUNTS = { stale: 0, due: 0, source_changed: 0, conflicts: 0 }

/** What the library health panel reads, through `useView`. */
export const libraryHealthView = {
  groups: (s: Snapshot) => s.context.health?.groups ?? NO_GROUPS,
  counts: (s: Snapshot) => s.context.health?.counts ?? NO_COUNTS,
  open: (s: Snapshot) => s.context.open,
  note: (s: Snapshot) => s.context.note,
  /** Why the check failed (shown with a retry); null unless it did. */
  error: (s: Snapshot) => (s.matches('failed') ? s.context.error : null),
  /** The panel shows while something wants work, or to say the check failed. */
  visible: (s: Snapshot) => {
    if (s.matches('failed')) return true
    const health = s.context.health
    if (!health) return false
    const { stale, due, source_changed, conflicts } = health.counts
    return health.groups.length > 0 || stale + due + source_changed + conflicts > 0
  },
}
