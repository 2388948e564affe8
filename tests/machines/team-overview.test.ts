import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { TeamOverview } from '../../contract/collaboration.ts'
import { teamOverviewMachine } from '../../machines/team-overview/index.ts'
import { testEveryPath } from './every-path.ts'

const overview: TeamOverview = {
  overdue: [
    {
      id: 3,
      name: 'CAIQ v4.xlsx',
      due_date: '2026-11-20',
      customer: 'Acme',
      owner: null,
      questions: 261,
      approved: 40,
    },
  ],
  activity: [],
}
const pending = teamOverviewMachine.provide({
  actors: { loadTeam: fromPromise<TeamOverview, void>(() => new Promise(() => {})) },
})
const at = (kind: 'done' | 'error') => `xstate.${kind}.actor.0.teamOverview.loading`
const events: AnyEventObject[] = [
  { type: 'retry' },
  { type: at('done'), output: overview },
  { type: at('error'), error: new Error('offline') },
]

describe('teamOverviewMachine', () => {
  testEveryPath(pending, events)

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
  })
})
