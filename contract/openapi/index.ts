import type { OperationDocs } from './operation.ts'
import { platformOperations } from './platform.ts'

export * from './operation.ts'

/** Every operation of the API, area by area (issue 41). */
export const OPERATIONS: OperationDocs = {
  ...platformOperations,
}
