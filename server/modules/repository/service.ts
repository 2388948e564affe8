import { createFileDetails } from './details.ts'
import { createFiles } from './files.ts'
import { createIngestion } from './ingestion.ts'
import type { RepositoryDeps } from './shared.ts'
import { createVersions } from './versions.ts'

export * from './shared.ts'

/**
 * The repository: its files as records (files.ts), their versions (versions.ts), a file's page
 * (details.ts) and their ingestion as a job (ingestion.ts).
 */
export function createRepositoryService(deps: RepositoryDeps) {
  const files = createFiles(deps)
  const versions = createVersions(deps, files)
  return {
    ...files,
    ...versions,
    ...createFileDetails(deps, files, versions),
    ...createIngestion(deps, files),
  }
}

export type RepositoryService = ReturnType<typeof createRepositoryService>
