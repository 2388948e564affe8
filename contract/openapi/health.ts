import { healthSchema } from '../health.ts'
import { paths } from '../paths.ts'
import { type OperationDocs, op } from './operation.ts'

/** Whether the instance is up (load balancers and start scripts wait on it). */
export const healthOperations: OperationDocs = {
  [op('GET', paths.health)]: {
    summary: 'Whether the database is reachable, the migrations applied and the jobs running',
    description:
      'Answers 200 when healthy and 503 (with Retry-After) when not, with the same body. The version and the latest migration are shown to signed-in callers only.',
    access: 'public',
    response: healthSchema,
  },
}
