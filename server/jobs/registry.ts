import type { JobDefinition } from './index.ts'

/**
 * Every job the workers run. Modules add their definitions here (ingest, analyse, generate,
 * export, mail) so that API nodes and worker nodes agree on the queues.
 */
export const jobDefinitions: JobDefinition[] = []
