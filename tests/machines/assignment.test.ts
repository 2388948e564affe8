import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { AssignRequest, Person } from '../../contract/collaboration.ts'
import * as view from '../../machines/assignment/index.ts'
import { assignmentMachine, requestOf } from '../../machines/assignment/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const ada: Person = {
  id: 4,
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  role: 'contributor',
  assignable: true,
}
const vic: Person = { ...ada, id: 5, name: 'Vic Viewer', role: 'viewer', assignable: false }
const pending = pendingActors(assignmentMachine)
const target = { questionId: 3, tabId: 2, filter: 'unanswered' as const }
const at = (kind: 'done' | 'error', state: string) => `xstate.${kind}.actor.0.assignment.${state}`
const events: AnyEventObject[] = [
  { type: 'open', target, scope: 'question' },
  { type: 'scope.set', scope: 'tab' },
  { type: 'person.set', assigneeId: 4 },
  { type: 'due.set', dueDate: '2030-01-10' },
  { type: 'submit' },
  { type: 'close' },
  { type: 'retry' },
  { type: at('done', 'loading'), output: [ada, vic] },
  { type: at('error', 'loading'), error: new Error('offline') },
  { type: at('done', 'saving'), output: 3 },
  {
    type: at('error', 'saving'),
    error: new Error('An assignment cannot be due after the questionnaire.'),
  },
]

describe('assignmentMachine', () => {
  testEveryPath(pending, events, {
    view,
    input: { questionnaireId: 7 },
    identity: (s) => [Boolean(s.context.error)],
  })

  test('names the questions of the scope chosen, and a due date only with a person', () => {
    const base = {
      questionnaireId: 7,
      target,
      people: [],
      assigneeId: 4,
      dueDate: '2030-01-10',
      error: null,
    }
    expect(requestOf({ ...base, scope: 'question' })).toEqual({
      assignee_id: 4,
      question_ids: [3],
      due_date: '2030-01-10',
    })
    expect(requestOf({ ...base, scope: 'tab' })).toMatchObject({ tab_id: 2 })
    expect(requestOf({ ...base, scope: 'filter' })).toMatchObject({
      filter: 'unanswered',
      tab_id: 2,
    })
    expect(requestOf({ ...base, scope: 'all' })).toEqual({ assignee_id: 4, due_date: '2030-01-10' })
    expect(requestOf({ ...base, scope: 'all', assigneeId: null })).toEqual({ assignee_id: null })
  })

  test('offers only people who may be assigned, and tells how many were assigned', async () => {
    const sent: AssignRequest[] = []
    const actor = createActor(
      assignmentMachine.provide({
        actors: {
          loadPeople: fromPromise<Person[], void>(async () => [ada, vic]),
          assign: fromPromise<number, { questionnaireId: number; request: AssignRequest }>(
            async ({ input }) => {
              sent.push(input.request)
              return 12
            },
          ),
        },
      }),
      { input: { questionnaireId: 7 } },
    ).start()
    const told: number[] = []
    actor.on('assigned', (event) => told.push(event.count))
    actor.send({ type: 'open', target, scope: 'tab' })
    await new Promise((r) => setTimeout(r, 0))
    expect(actor.getSnapshot().context.people).toEqual([ada])
    actor.send({ type: 'person.set', assigneeId: 4 })
    actor.send({ type: 'submit' })
    await new Promise((r) => setTimeout(r, 0))
    expect(sent).toEqual([{ assignee_id: 4, tab_id: 2 }])
    expect(told).toEqual([12])
    expect(actor.getSnapshot().value).toBe('closed')
  })
})
