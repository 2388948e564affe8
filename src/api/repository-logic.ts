import { addByUrlMachine } from '../../machines/add-by-url/index.ts'
import { fileListMachine } from '../../machines/file-list/index.ts'
import { fileStatsMachine } from '../../machines/file-stats/index.ts'
import { fileVersionsMachine } from '../../machines/file-versions/index.ts'
import { uploadQueueMachine } from '../../machines/upload-queue/index.ts'
import { repositoryActors } from './knowledge-actors.ts'

/** The repository page's machines with the real actors; tests pass their own. */
export function createRepositoryLogic(actors = repositoryActors()) {
  return {
    list: fileListMachine.provide({ actors }),
    queue: uploadQueueMachine.provide({ actors }),
    addUrl: addByUrlMachine.provide({ actors }),
    stats: fileStatsMachine.provide({ actors }),
    versions: fileVersionsMachine.provide({ actors }),
  }
}
export type RepositoryLogic = ReturnType<typeof createRepositoryLogic>
