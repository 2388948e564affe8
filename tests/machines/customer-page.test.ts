import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { CustomerPage } from '../../contract/collaboration.ts'
import * as view from '../../machines/customer-page/index.ts'
import {
  byYear,
  customerPageMachine,
  customerPageView,
  isOverdue,
} from '../../machines/customer-page/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const entry = (
  id: number,
  year: number,
  patch: Partial<CustomerPage['questionnaires'][number]> = {},
) => ({
  id,
  name: `SIG ${year}.xlsx`,
  work_status: 'sent' as const,
  due_date: null,
  created_at: `${year}-03-01T10:00:00.000Z`,
  year,
  questions: 40,
  approved: 40,
  ...patch,
})
const page: CustomerPage = {
  customer: {
    id: 4,
    name: 'Acme',
    domain: 'acme.com',
    questionnaires: 3,
    created_at: '2024-01-01T10:00:00.000Z',
  },
  questionnaires: [entry(9, 2026), entry(8, 2025), entry(7, 2025, { name: 'CAIQ 2025.xlsx' })],
}
const pending = pendingActors(customerPageMachine)
const events: AnyEventObject[] = [
  { type: 'retry' },
  { type: 'xstate.done.actor.0.customerPage.loading', output: page },
  {
    type: 'xstate.error.actor.0.customerPage.loading',
    error: new Error('That customer was not found.'),
  },
]

describe('customerPageMachine', () => {
  testEveryPath(pending, events, { view, input: { id: 4 } })

  test('groups the questionnaires by year, newest year first', () => {
    expect(
      byYear(page.questionnaires).map((g) => [g.year, g.questionnaires.map((q) => q.id)]),
    ).toEqual([
      [2026, [9]],
      [2025, [8, 7]],
    ])
  })

  test('is overdue past its due date until it is sent', () => {
    const today = '2026-05-10'
    expect(isOverdue({ due_date: '2026-05-09', work_status: 'drafting' }, today)).toBe(true)
    expect(isOverdue({ due_date: '2026-05-10', work_status: 'drafting' }, today)).toBe(false)
    expect(isOverdue({ due_date: '2026-05-09', work_status: 'sent' }, today)).toBe(false)
    expect(isOverdue({ due_date: null, work_status: 'drafting' }, today)).toBe(false)
  })

  test('loads the customer of its id; a refusal says why and can be retried', async () => {
    const asked: number[] = []
    let fail = true
    const actor = createActor(
      customerPageMachine.provide({
        actors: {
          loadCustomer: fromPromise<CustomerPage, { id: number }>(async ({ input }) => {
            asked.push(input.id)
            if (fail) throw new Error('That customer was not found.')
            return page
          }),
        },
      }),
      { input: { id: 4 } },
    ).start()
    await new Promise((r) => setTimeout(r, 0))
    expect(customerPageView.error(actor.getSnapshot())).toBe('That customer was not found.')
    fail = false
    actor.send({ type: 'retry' })
    await new Promise((r) => setTimeout(r, 0))
    expect(asked).toEqual([4, 4])
    expect(customerPageView.customer(actor.getSnapshot())?.name).toBe('Acme')
    expect(customerPageView.years(actor.getSnapshot()).map((g) => g.year)).toEqual([2026, 2025])
  })
})
