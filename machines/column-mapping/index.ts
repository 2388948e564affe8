export * from './column-mapping.machine.ts'

import type { SnapshotFrom } from 'xstate'
import type { columnMappingMachine } from './column-mapping.machine.ts'

type Snapshot = SnapshotFrom<typeof columnMappingMachine>
export const selectMapping = (s: Snapshot) => s.context.mapping
