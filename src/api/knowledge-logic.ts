import { createActor, fromPromise, toPromise } from 'xstate'
import { itemEditorMachine } from '../../machines/item-editor/index.ts'
import { type ItemListKind, itemListMachine } from '../../machines/item-list/index.ts'
import { kbSearchMachine } from '../../machines/kb-search/index.ts'
import { type KnowledgeCounts, knowledgeBaseMachine } from '../../machines/knowledge-base/index.ts'
import { libraryHealthMachine } from '../../machines/library-health/index.ts'
import { libraryReviewMachine } from '../../machines/library-review/index.ts'
import { ownerChoicesMachine } from '../../machines/owner-choices/index.ts'
import { productChoiceMachine } from '../../machines/product-choice/index.ts'
import { qaImportMachine } from '../../machines/qa-import/index.ts'
import { teamOverviewMachine } from '../../machines/team-overview/index.ts'
import { teamActors } from './collaboration-actors.ts'
import { itemListActors, knowledgeActors } from './knowledge-actors.ts'
import { productChoiceActors } from './product-actors.ts'

type ItemListActors = ReturnType<typeof itemListActors>

/**
 * What the knowledge base holds, counted by its own lists (one row of each asked for, its count
 * read): the counts agree with the lists whatever answers them.
 */
const countsOf = (loadItems: ItemListActors['loadItems']) =>
  fromPromise<KnowledgeCounts, void>(async () => {
    const count = (kind: ItemListKind) =>
      toPromise(
        createActor(loadItems, {
          input: {
            kind,
            page: 1,
            page_size: 1,
            q: '',
            freshness: null,
            owner: null,
            product: null,
            queue: false,
            id: null,
          },
        }).start(),
      ).then((output) => output.count)
    const [qa, data, answered] = await Promise.all([count('qa'), count('data'), count('answered')])
    return { qa, data, answered }
  })

/** The knowledge-base page's machines with the real actors; tests pass their own. */
export function createKnowledgeLogic(
  actors = { ...knowledgeActors(), ...itemListActors() },
  productActors = productChoiceActors(),
) {
  return {
    list: itemListMachine.provide({ actors }),
    editor: itemEditorMachine.provide({ actors }),
    search: kbSearchMachine.provide({ actors }),
    importer: qaImportMachine.provide({ actors }),
    health: libraryHealthMachine.provide({ actors }),
    review: libraryReviewMachine.provide({ actors }),
    owners: ownerChoicesMachine.provide({ actors }),
    products: productChoiceMachine.provide({ actors: productActors }),
    page: knowledgeBaseMachine.provide({ actors: { loadCounts: countsOf(actors.loadItems) } }),
  }
}
export type KnowledgeLogic = ReturnType<typeof createKnowledgeLogic>

/** The home page's machine: library health, for the counts that need someone's attention. */
export function createHomeLogic(actors = knowledgeActors(), team = teamActors()) {
  return {
    health: libraryHealthMachine.provide({ actors }),
    team: teamOverviewMachine.provide({ actors: team }),
  }
}
export type HomeLogic = ReturnType<typeof createHomeLogic>
