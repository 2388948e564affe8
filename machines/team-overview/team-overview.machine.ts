import { assign, fromPromise, setup } from 'xstate'
import { COLLABORATION_TEXTS, type TeamOverview } from '../../contract/collaboration.ts'
import { mustBeProvidedIn } from '../actors.ts'

/**
 * Home (issues 29 and 30): the organisation's state, read when home opens: the questionnaires in
 * progress, the answers waiting for review, the recent activity and the first steps taken.
 */

/** Before the first read: nothing in progress, and no step known to be done. */
export const EMPTY_OVERVIEW: TeamOverview = {
  overdue: [],
  in_progress: [],
  in_progress_count: 0,
  review: { ready: 0, drafts: 0 },
  first_steps: { documents: false, library: false, questionnaire: false, chat: false },
  activity: [],
}

export interface TeamOverviewContext {
  overview: TeamOverview
  error: string | null
}

const mustBeProvided = mustBeProvidedIn('teamOverviewMachine')

export const teamOverviewMachine = setup({
  types: {
    context: {} as TeamOverviewContext,
    events: {} as { type: 'retry' },
  },
  actors: {
    loadTeam: fromPromise<TeamOverview, void>(mustBeProvided('loadTeam')),
  },
}).createMachine({
  id: 'teamOverview',
  context: { overview: EMPTY_OVERVIEW, error: null },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadTeam',
        onDone: {
          target: 'ready',
          actions: assign(({ event }) => ({ overview: event.output, error: null })),
        },
        onError: {
          target: 'failed',
          actions: assign({ error: COLLABORATION_TEXTS.teamFailed }),
        },
      },
    },
    failed: { on: { retry: 'loading' } },
    ready: {},
  },
})
