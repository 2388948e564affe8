import { addByUrlMachine } from '../../machines/add-by-url/index.ts'
import { fileListMachine } from '../../machines/file-list/index.ts'
import { fileStatsMachine } from '../../machines/file-stats/index.ts'
import { fileVersionsMachine } from '../../machines/file-versions/index.ts'
import { productChoiceMachine } from '../../machines/product-choice/index.ts'
import { uploadQueueMachine } from '../../machines/upload-queue/index.ts'
import { repositoryActors } from './knowledge-actors.ts'
import { productChoiceActors } from './product-actors.ts'

/** The repository page's machines with the real actors; tests pass their own. */
export function createRepositoryLogic(
  actors = repositoryActors(),
  productActors = productChoiceActors(),
) {
  return {
    list: fileListMachine.provide({ actors }),
    queue: uploadQueueMachine.provide({ actors }),
    addUrl: addByUrlMachine.provide({ actors }),
    stats: fileStatsMachine.provide({ actors }),
    versions: fileVersionsMachine.provide({ actors }),
    products: productChoiceMachine.provide({ actors: productActors }),
  }
}
export type RepositoryLogic = ReturnType<typeof createRepositoryLogic>
