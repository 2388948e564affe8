import { assign, setup } from 'xstate'

/**
 * The sections of the Knowledge Base page; each lists its own items. 'review' is the review
 * queue: the caller's Q&A items that are due or stale.
 */
export type KnowledgeTab = 'qa' | 'review' | 'data' | 'files'

/**
 * The Knowledge Base page around its lists: which section is open, and a version that moves on
 * every saved, deleted or imported item so that the open list loads again.
 */
export const knowledgeBaseMachine = setup({
  types: {
    context: {} as { tab: KnowledgeTab; version: number },
    events: {} as { type: 'tab.select'; tab: KnowledgeTab } | { type: 'changed' },
  },
}).createMachine({
  id: 'knowledgeBase',
  context: { tab: 'qa', version: 0 },
  initial: 'open',
  states: {
    open: {
      on: {
        'tab.select': { actions: assign({ tab: ({ event }) => event.tab }) },
        changed: { actions: assign({ version: ({ context }) => context.version + 1 }) },
      },
    },
  },
})
