import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { MyAssignment, MyAssignments } from '../../contract/collaboration.ts'
import * as view from '../../machines/my-work/index.ts'
import {
  groupsOf,
  myWorkMachine,
  myWorkPageView,
  myWorkView,
  SHOWN_PER_QUESTIONNAIRE,
  selectSoonCount,
} from '../../machines/my-work/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const itemOf = (id: number, group: MyAssignment['group']): MyAssignment => ({
  questionnaire_id: 7,
  questionnaire: 'CAIQ v4',
  customer: 'Acme',
  question_id: id,
  tab_id: 1,
  ref: `A&A-0${id}`,
  text: `Question ${id}?`,
  due_date: group === 'no_date' ? null : '2025-03-10',
  state: 'assigned',
  group,
})
const work: MyAssignments = {
  results: [
    itemOf(1, 'overdue'),
    itemOf(2, 'this_week'),
    itemOf(3, 'this_week'),
    itemOf(4, 'no_date'),
  ],
  counts: { overdue: 1, this_week: 2, later: 0, no_date: 1 },
}

const pending = pendingActors(myWorkMachine)
const at = (kind: 'done' | 'error') => `xstate.${kind}.actor.0.myWork.loading`
const events: AnyEventObject[] = [
  { type: 'refresh' },
  { type: 'filter.set', filter: 'changes_requested' },
  { type: 'expand', key: 'this_week:7' },
  { type: 'collapse', key: 'this_week:7' },
  { type: at('done'), output: work },
  { type: at('error'), error: new Error('offline') },
]

describe('myWorkMachine', () => {
  testEveryPath(pending, events, {
    view,
    identity: (s) => [s.context.work !== null],
    // only the failed state shows its error; a refresh keeps it in the context, hidden
    assertState: (s) => {
      if (s.matches('failed')) expect(view.myWorkView.error(s)).toEqual(expect.any(String))
      else expect(view.myWorkView.error(s)).toBeNull()
    },
  })

  test('groups what is mine overdue, this week, later, no due date; counts overdue and this week for the sidebar', async () => {
    const actor = createActor(
      myWorkMachine.provide({ actors: { loadMyWork: fromPromise(async () => work) } }),
    ).start()
    await new Promise((r) => setTimeout(r, 0))
    const snapshot = actor.getSnapshot()
    const groups = myWorkView.groups(snapshot)
    expect(groups.map((g) => [g.label, g.items.map((i) => i.question_id)])).toEqual([
      ['Overdue', [1]],
      ['This week', [2, 3]],
      ['No due date', [4]],
    ])
    // the same groups while the work read is the same (a view re-renders only on a change)
    expect(myWorkView.groups(snapshot)).toBe(groups)
    expect(selectSoonCount(snapshot)).toBe(3)
    expect(myWorkView.total(snapshot)).toBe(4)
  })

  test('filters by review state with counts, and shows a questionnaire’s first questions until expanded (issue 39)', async () => {
    const many: MyAssignments = {
      results: [
        ...Array.from({ length: 7 }, (_, i) => itemOf(10 + i, 'this_week')),
        { ...itemOf(30, 'this_week'), state: 'changes_requested', questionnaire_id: 8 },
      ],
      counts: { overdue: 0, this_week: 8, later: 0, no_date: 0 },
    }
    const actor = createActor(
      myWorkMachine.provide({ actors: { loadMyWork: fromPromise(async () => many) } }),
    ).start()
    await new Promise((r) => setTimeout(r, 0))
    expect(myWorkPageView.filters(actor.getSnapshot())).toEqual([
      { state: 'assigned', label: 'Assigned', count: 7 },
      { state: 'changes_requested', label: 'Changes requested', count: 1 },
    ])
    const [week] = myWorkPageView.shown(actor.getSnapshot())
    expect(week?.questionnaires.map((q) => [q.questionnaireId, q.total, q.items.length])).toEqual([
      [7, 7, SHOWN_PER_QUESTIONNAIRE],
      [8, 1, 1],
    ])
    actor.send({ type: 'expand', key: 'this_week:7' })
    expect(myWorkPageView.shown(actor.getSnapshot())[0]?.questionnaires[0]?.items).toHaveLength(7)
    actor.send({ type: 'filter.set', filter: 'changes_requested' })
    const filtered = myWorkPageView.shown(actor.getSnapshot())
    expect(filtered.flatMap((g) => g.questionnaires.map((q) => q.questionnaireId))).toEqual([8])
    // a new read keeps the choice
    actor.send({ type: 'refresh' })
    expect(actor.getSnapshot().context.filter).toBe('changes_requested')
  })

  test('keeps what it read on screen while reading again, and says when it failed', async () => {
    let calls = 0
    const actor = createActor(
      myWorkMachine.provide({
        actors: {
          loadMyWork: fromPromise(async () => {
            calls += 1
            if (calls === 2) throw new Error('The server is away')
            return work
          }),
        },
      }),
    ).start()
    await new Promise((r) => setTimeout(r, 0))
    actor.send({ type: 'refresh' })
    expect(myWorkView.loading(actor.getSnapshot())).toBe(true)
    expect(myWorkView.total(actor.getSnapshot())).toBe(4)
    await new Promise((r) => setTimeout(r, 0))
    expect(myWorkView.error(actor.getSnapshot())).toBe('The server is away')
    expect(myWorkView.loaded(actor.getSnapshot())).toBe(true)
  })

  test('nothing assigned: no groups', () => {
    expect(
      groupsOf({ results: [], counts: { overdue: 0, this_week: 0, later: 0, no_date: 0 } }),
    ).toEqual([])
    expect(groupsOf(null)).toEqual([])
  })
})
