import { assign, fromPromise, setup } from 'xstate'
import type { Freshness } from '../../contract/freshness.ts'
import { mustBeProvidedIn } from '../actors.ts'

/**
 * The sections of the Knowledge Base page; each lists its own items. 'review' is the review
 * queue: the caller's Q&A items that are due or stale.
 */
export type KnowledgeTab = 'qa' | 'review' | 'data' | 'files'

/**
 * What the knowledge base holds, counted: its empty states say what exists (issue 30), so that
 * "No Q&A items yet" never sits above the rows of a completed questionnaire.
 */
export interface KnowledgeCounts {
  qa: number
  data: number
  /** Rows read from completed questionnaires in the repository. */
  answered: number
}

/**
 * The Knowledge Base page around its lists: which section is open, what the knowledge base holds
 * (counted when the page opens and after every change; null until counted, or when counting
 * failed: the empty states then say what they always said), and a version that moves on every
 * saved, deleted or imported item so that the open list loads again. Library health's counts open
 * the Q&A list filtered by a freshness (`freshness.open`): the list starts anew with it.
 */
export const knowledgeBaseMachine = setup({
  types: {
    context: {} as {
      tab: KnowledgeTab
      version: number
      freshness: Freshness | null
      counts: KnowledgeCounts | null
    },
    events: {} as
      | { type: 'tab.select'; tab: KnowledgeTab }
      | { type: 'changed' }
      | { type: 'freshness.open'; freshness: Freshness },
  },
  actors: {
    loadCounts: fromPromise<KnowledgeCounts, void>(
      mustBeProvidedIn('knowledgeBaseMachine')('loadCounts'),
    ),
  },
}).createMachine({
  id: 'knowledgeBase',
  context: { tab: 'qa', version: 0, freshness: null, counts: null },
  initial: 'counting',
  on: {
    'tab.select': { actions: assign({ tab: ({ event }) => event.tab, freshness: null }) },
    'freshness.open': {
      actions: assign({
        tab: 'qa',
        freshness: ({ event }) => event.freshness,
        version: ({ context }) => context.version + 1,
      }),
    },
    changed: {
      target: '.counting',
      reenter: true,
      actions: assign({ version: ({ context }) => context.version + 1 }),
    },
  },
  states: {
    counting: {
      description: 'Counts what the knowledge base holds; the sections show meanwhile.',
      invoke: {
        src: 'loadCounts',
        onDone: { target: 'open', actions: assign({ counts: ({ event }) => event.output }) },
        onError: 'open',
      },
    },
    open: {},
  },
})
