import { fromPromise } from 'xstate'
import {
  type FileDetails,
  type FilePassage,
  fileDetailsSchema,
  filePassageListSchema,
} from '../../contract/file-page.ts'
import type { Paged } from '../../contract/paging.ts'
import { paths } from '../../contract/paths.ts'
import { filePageMachine, type PassagesInput } from '../../machines/file-page/index.ts'
import { productChoiceMachine } from '../../machines/product-choice/index.ts'
import { type ApiClient, api } from './client.ts'
import { productChoiceActors } from './product-actors.ts'

/** The real side effects of a file's page (issue 30). */
export function filePageActors(client: ApiClient = api) {
  return {
    loadDetails: fromPromise<FileDetails, { id: number }>(async ({ input }) =>
      client.get(paths.files.details(input.id), fileDetailsSchema),
    ),
    loadPassages: fromPromise<Paged<FilePassage> & { page?: number }, PassagesInput>(
      async ({ input }) =>
        client.get(
          `${paths.files.passages(input.id)}?page=${input.page}&page_size=${input.page_size}${input.at_page ? `&at_page=${input.at_page}` : ''}`,
          filePassageListSchema,
        ),
    ),
  }
}

/** The file page's machine with the real actors; tests pass their own. */
export function createFilePageLogic(
  actors = filePageActors(),
  productActors = productChoiceActors(),
) {
  return {
    page: filePageMachine.provide({ actors }),
    products: productChoiceMachine.provide({ actors: productActors }),
  }
}
export type FilePageLogic = ReturnType<typeof createFilePageLogic>
