import { assign, setup } from 'xstate'
import type { Freshness } from '../../contract/freshness.ts'

/**
 * The sections of the Knowledge Base page; each lists its own items. 'review' is the review
 * queue: the caller's Q&A items that are due or stale.
 */
export type KnowledgeTab = 'qa' | 'review' | 'data' | 'files'

/**
 * The Knowledge Base page around its lists: which section is open, and a version that moves on
 * every saved, deleted or imported item so that the open list loads again. Library health's counts
 * open the Q&A list filtered by a freshness (`freshness.open`): the list starts anew with it.
 */
export const knowledgeBaseMachine = setup({
  types: {
    context: {} as { tab: KnowledgeTab; version: number; freshness: Freshness | null },
    events: {} as
      | { type: 'tab.select'; tab: KnowledgeTab }
      | { type: 'changed' }
      | { type: 'freshness.open'; freshness: Freshness },
  },
}).createMachine({
  id: 'knowledgeBase',
  context: { tab: 'qa', version: 0, freshness: null },
  initial: 'open',
  states: {
    open: {
      on: {
        'tab.select': { actions: assign({ tab: ({ event }) => event.tab, freshness: null }) },
        'freshness.open': {
          actions: assign({
            tab: 'qa',
            freshness: ({ event }) => event.freshness,
            version: ({ context }) => context.version + 1,
          }),
        },
        changed: { actions: assign({ version: ({ context }) => context.version + 1 }) },
      },
    },
  },
})
