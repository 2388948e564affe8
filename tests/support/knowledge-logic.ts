import { fromPromise } from 'xstate'
import type { ItemListQuery } from '../../machines/item-list/index.ts'
import type { OwnerChoices } from '../../machines/owner-choices/index.ts'
import { itemListActors, knowledgeActors } from '../../src/api/knowledge-actors.ts'
import { createKnowledgeLogic } from '../../src/api/knowledge-logic.ts'

type KnowledgeActors = NonNullable<Parameters<typeof createKnowledgeLogic>[0]>
type ProductActors = Parameters<typeof createKnowledgeLogic>[1]
type ItemPage = { count: number; results: unknown[] }

/** Bea Ng may own answers; entries are reviewed every 180 days. */
export const ownersOf = (people: OwnerChoices['people'] = [{ id: 4, name: 'Bea Ng' }]) =>
  fromPromise<OwnerChoices, void>(async () => ({ people, reviewCycleDays: 180 }))

/**
 * The knowledge base's logic with its lists answered by `loadItems` (every query it is asked),
 * owners from `ownersOf()`, and the app's other actors unless `actors` gives them.
 */
export const knowledgeLogicOf = (
  loadItems: (query: ItemListQuery) => Promise<ItemPage>,
  actors: Partial<KnowledgeActors> = {},
  products?: ProductActors,
) =>
  createKnowledgeLogic(
    {
      ...knowledgeActors(),
      ...itemListActors(),
      loadOwnerChoices: ownersOf(),
      loadItems: fromPromise<ItemPage, ItemListQuery>(({ input }) => loadItems(input)),
      ...actors,
    },
    products,
  )
