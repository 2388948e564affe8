import { assign, fromPromise, setup } from 'xstate'
import type { TeamOverview } from '../../contract/collaboration.ts'
import { mustBeProvidedIn } from '../actors.ts'

/** Home (issue 29): the team's overdue questionnaires and its recent activity, read once. */

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
  context: { overview: { overdue: [], activity: [] }, error: null },
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
          actions: assign({ error: 'What your team is working on could not be loaded.' }),
        },
      },
    },
    failed: { on: { retry: 'loading' } },
    ready: {},
  },
})
