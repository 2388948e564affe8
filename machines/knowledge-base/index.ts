import type { SnapshotFrom } from 'xstate'
import type { knowledgeBaseMachine } from './knowledge-base.machine.ts'

export * from './knowledge-base.machine.ts'

type Snapshot = SnapshotFrom<typeof knowledgeBaseMachine>
export const selectTab = (snapshot: Snapshot) => snapshot.context.tab
export const selectVersion = (snapshot: Snapshot) => snapshot.context.version
export const selectFreshness = (snapshot: Snapshot) => snapshot.context.freshness
/** What the knowledge base holds, once counted; null meanwhile or when counting failed. */
export const selectCounts = (snapshot: Snapshot) => snapshot.context.counts

/** An empty list's title and words. */
export interface EmptyWords {
  title: string
  text: string
}

/**
 * The Q&A tab's empty states from what exists (issue 30): the Q&A list's words (undefined: its
 * usual ones), and the rows of completed questionnaires as a list, a one-line hint that there are
 * none, or nothing (the Q&A list's words already said it).
 */
export function emptyOf(counts: ReturnType<typeof selectCounts>): {
  qa: EmptyWords | undefined
  answered: 'list' | 'hint' | 'none'
} {
  if (!counts || counts.qa > 0)
    return { qa: undefined, answered: counts?.answered === 0 ? 'hint' : 'list' }
  if (counts.answered > 0) {
    const rows = counts.answered === 1 ? 'the row' : `the ${counts.answered.toLocaleString()} rows`
    return {
      qa: {
        title: 'No Q&A items of your own yet',
        text: `Quire already answers from ${rows} of completed questionnaires below. Add a Q&A item to answer a question in your own words, or import answers you keep elsewhere.`,
      },
      answered: 'list',
    }
  }
  return {
    qa: {
      title: 'No answers yet',
      text: 'Add answers you have approved before, import a completed questionnaire (CSV or Excel), or upload one to the Repository: Quire answers from its rows.',
    },
    answered: 'none',
  }
}
