import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { TeamOverview } from '../../contract/collaboration.ts'
import * as view from '../../machines/team-overview/index.ts'
import { teamOverviewMachine, teamOverviewView } from '../../machines/team-overview/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const caiq = {
  id: 3,
  name: 'CAIQ v4.xlsx',
  due_date: '2026-11-20',
  overdue: true,
  work_status: 'drafting' as const,
  customer: 'Acme',
  owner: null,
  questions: 261,
  answered: 200,
  approved: 40,
}
const overview: TeamOverview = {
  overdue: [caiq],
  in_progress: [caiq],
  in_progress_count: 1,
  review: { ready: 3, drafts: 160 },
  first_steps: { documents: true, library: false, questionnaire: true, chat: false },
  activity: [],
}
const pending = pendingActors(teamOverviewMachine)
const at = (kind: 'done' | 'error') => `xstate.${kind}.actor.0.teamOverview.loading`
const events: AnyEventObject[] = [
  { type: 'retry' },
  { type: at('done'), output: overview },
  { type: at('error'), error: new Error('offline') },
]

describe('teamOverviewMachine', () => {
  testEveryPath(pending, events, { view })

  test('reads the team’s overview, and again on retry after a failure', async () => {
    let calls = 0
    const actor = createActor(
      teamOverviewMachine.provide({
        actors: {
          loadTeam: fromPromise<TeamOverview, void>(async () => {
            calls += 1
            if (calls === 1) throw new Error('offline')
            return overview
          }),
        },
      }),
    ).start()
    await new Promise((r) => setTimeout(r, 0))
    expect(actor.getSnapshot().value).toBe('failed')
    actor.send({ type: 'retry' })
    await new Promise((r) => setTimeout(r, 0))
    expect(actor.getSnapshot().context.overview).toEqual(overview)
    expect(teamOverviewView.started(actor.getSnapshot())).toBe(false)
    expect(teamOverviewView.review(actor.getSnapshot())).toEqual({ ready: 3, drafts: 160 })
  })

  test('home stops offering the first steps once every one is taken (issue 30)', () => {
    const actor = createActor(
      teamOverviewMachine.provide({
        actors: { loadTeam: fromPromise<TeamOverview, void>(() => new Promise(() => {})) },
      }),
    ).start()
    expect(teamOverviewView.started(actor.getSnapshot())).toBe(false)
    actor.send({
      type: 'xstate.done.actor.0.teamOverview.loading',
      output: {
        ...overview,
        first_steps: { documents: true, library: true, questionnaire: true, chat: true },
      },
    } as never)
    expect(teamOverviewView.started(actor.getSnapshot())).toBe(true)
  })
})
