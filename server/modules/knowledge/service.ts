import { createAnsweredRows } from './answered.ts'
import { createQaImport } from './import.ts'
import { createItems } from './items.ts'
import { createSearch } from './search.ts'
import type { KnowledgeDeps } from './shared.ts'

export * from './shared.ts'

/** The knowledge base: Q&A and data items (items.ts), their import (import.ts) and search. */
export function createKnowledgeService(deps: KnowledgeDeps) {
  return {
    ...createItems(deps),
    ...createAnsweredRows(deps),
    ...createQaImport(deps),
    ...createSearch(deps),
  }
}

export type KnowledgeService = ReturnType<typeof createKnowledgeService>
