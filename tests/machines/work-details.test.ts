import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { Questionnaire } from '../../contract/questionnaires.ts'
import * as view from '../../machines/work-details/index.ts'
import {
  checkWork,
  NEW_CUSTOMER,
  type SaveWorkInput,
  valuesOf,
  workChanges,
  workDetailsMachine,
} from '../../machines/work-details/index.ts'
import { questionnaireOf } from '../fixtures/answer-rows.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const pending = pendingActors(workDetailsMachine)
const item = questionnaireOf({
  owner: { id: '3', name: 'Cy Young', email: 'cy@example.com' },
  customer: { id: 4, name: 'Acme' },
  due_date: '2026-12-01',
})
const events: AnyEventObject[] = [
  { type: 'open', questionnaire: item },
  { type: 'change', field: 'requester', value: 'Jane Roe' },
  { type: 'change', field: 'due_date', value: 'soon' },
  { type: 'change', field: 'customer', value: NEW_CUSTOMER },
  { type: 'submit' },
  { type: 'close' },
  { type: 'xstate.done.actor.0.workDetails.saving', output: item },
  { type: 'xstate.error.actor.0.workDetails.saving', error: new Error('offline') },
]

describe('workDetailsMachine', () => {
  testEveryPath(pending, events, {
    view,
    identity: (s) => [
      s.context.values.requester,
      s.context.values.due_date,
      s.context.values.customer,
      Object.keys(s.context.errors).length,
      s.context.failure,
    ],
  })

  test('sends only what changed: a new customer by name, a cleared owner, a due date', () => {
    const initial = valuesOf(item)
    expect(initial).toEqual({
      owner_id: '3',
      customer: '4',
      customer_name: '',
      requester: '',
      due_date: '2026-12-01',
      work_status: 'drafting',
    })
    expect(workChanges(initial, initial)).toEqual({})
    expect(
      workChanges(initial, {
        ...initial,
        owner_id: '',
        customer: NEW_CUSTOMER,
        customer_name: 'Globex',
        requester: '  Jane Roe ',
        due_date: '',
        work_status: 'in_review',
      }),
    ).toEqual({
      owner_id: null,
      customer_name: 'Globex',
      requester: 'Jane Roe',
      due_date: null,
      work_status: 'in_review',
    })
    expect(workChanges(initial, { ...initial, customer: '' })).toEqual({ customer_id: null })
  })

  test('refuses a new customer without a name and a date not written YYYY-MM-DD', () => {
    const initial = valuesOf(item)
    expect(checkWork(initial, { ...initial, customer: NEW_CUSTOMER, customer_name: ' ' })).toEqual({
      customer_name: 'A customer needs a name',
    })
    expect(checkWork(initial, { ...initial, due_date: '1/2/2026' })).toEqual({
      due_date: 'A date is written YYYY-MM-DD',
    })
  })

  test('saves the changes, emits the questionnaire and closes; a refusal stays open with why', async () => {
    const sent: SaveWorkInput[] = []
    let fail = true
    const actor = createActor(
      workDetailsMachine.provide({
        actors: {
          saveWork: fromPromise<Questionnaire, SaveWorkInput>(async ({ input }) => {
            sent.push(input)
            if (fail) throw new Error('The owner must be an active person of your organisation.')
            return { ...item, work_status: 'approved' }
          }),
        },
      }),
    ).start()
    const saved: Questionnaire[] = []
    actor.on('saved', (event) => saved.push(event.questionnaire))
    actor.send({ type: 'open', questionnaire: item })
    actor.send({ type: 'submit' })
    expect(actor.getSnapshot().value).toBe('closed')
    expect(sent).toEqual([])
    actor.send({ type: 'open', questionnaire: item })
    actor.send({ type: 'change', field: 'work_status', value: 'approved' })
    actor.send({ type: 'submit' })
    await new Promise((r) => setTimeout(r, 0))
    expect(actor.getSnapshot().value).toBe('editing')
    expect(actor.getSnapshot().context.failure).toBe(
      'The owner must be an active person of your organisation.',
    )
    fail = false
    actor.send({ type: 'submit' })
    await new Promise((r) => setTimeout(r, 0))
    expect(sent.at(-1)).toEqual({ id: 7, body: { work_status: 'approved' } })
    expect(actor.getSnapshot().value).toBe('closed')
    expect(saved.map((entry) => entry.work_status)).toEqual(['approved'])
  })
})
