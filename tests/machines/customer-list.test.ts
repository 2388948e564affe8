import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { Customer, CustomerCreate, CustomerPage } from '../../contract/collaboration.ts'
import * as view from '../../machines/customer-list/index.ts'
import {
  checkCustomer,
  customerListMachine,
  customerListView,
} from '../../machines/customer-list/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const customerOf = (patch: Partial<Customer> = {}): Customer => ({
  id: 1,
  name: 'Acme',
  domain: 'acme.com',
  questionnaires: 2,
  created_at: '2026-01-10T10:00:00.000Z',
  ...patch,
})
const pageOf = (customer: Customer): CustomerPage => ({ customer, questionnaires: [] })
const pending = pendingActors(customerListMachine)
const at = (kind: 'done' | 'error', state: string) => `xstate.${kind}.actor.0.customerList.${state}`
const events: AnyEventObject[] = [
  { type: 'retry' },
  { type: 'refresh' },
  { type: 'create.open' },
  { type: 'create.change', field: 'name', value: 'Globex' },
  { type: 'create.submit' },
  { type: 'create.close' },
  { type: at('done', 'list.loading'), output: [customerOf()] },
  { type: at('error', 'list.loading'), error: new Error('offline') },
  { type: at('done', 'create.saving'), output: pageOf(customerOf({ id: 2, name: 'Globex' })) },
  {
    type: at('error', 'create.saving'),
    error: new Error('A customer with that name already exists.'),
  },
]

describe('customerListMachine', () => {
  testEveryPath(pending, events, {
    view,
    // the default check found that `loading` is the first load only: a reload keeps what was
    // read on screen, with no loading sign, while the 'loading' tag is on
    except: { tags: ['loading'] },
    assertState: (s) => {
      expect(view.customerListView.loading(s)).toBe(s.hasTag('loading') && !s.context.loaded)
    },
    identity: (s) => [s.context.customers.length > 0, s.context.values.name, s.context.failure],
  })

  test('checks the name and the domain with the contract’s rules', () => {
    expect(checkCustomer({ name: ' ', domain: '' })).toEqual({ name: 'A customer needs a name' })
    expect(checkCustomer({ name: 'Acme', domain: 'not a domain' })).toEqual({
      domain: 'A domain is written like example.com',
    })
    expect(checkCustomer({ name: 'Acme', domain: 'Acme.COM' })).toEqual({})
  })

  test('adds a customer in name order; a taken name stays in the dialog with the server’s words', async () => {
    const asked: CustomerCreate[] = []
    const actor = createActor(
      customerListMachine.provide({
        actors: {
          loadCustomers: fromPromise<Customer[], void>(async () => [
            customerOf(),
            customerOf({ id: 3, name: 'Zenith' }),
          ]),
          createCustomer: fromPromise<CustomerPage, CustomerCreate>(async ({ input }) => {
            asked.push(input)
            if (input.name === 'Acme') throw new Error('A customer with that name already exists.')
            return pageOf(customerOf({ id: 2, name: input.name, domain: null, questionnaires: 0 }))
          }),
        },
      }),
    ).start()
    const created: string[] = []
    actor.on('created', (event) => created.push(event.customer.name))
    await new Promise((r) => setTimeout(r, 0))
    actor.send({ type: 'create.open' })
    actor.send({ type: 'create.change', field: 'name', value: 'Acme' })
    actor.send({ type: 'create.submit' })
    await new Promise((r) => setTimeout(r, 0))
    expect(customerListView.failure(actor.getSnapshot())).toBe(
      'A customer with that name already exists.',
    )
    expect(customerListView.creating(actor.getSnapshot())).toBe(true)
    actor.send({ type: 'create.change', field: 'name', value: 'Globex' })
    expect(customerListView.failure(actor.getSnapshot())).toBeNull()
    actor.send({ type: 'create.submit' })
    await new Promise((r) => setTimeout(r, 0))
    expect(asked.at(-1)).toEqual({ name: 'Globex', domain: null })
    expect(created).toEqual(['Globex'])
    expect(customerListView.creating(actor.getSnapshot())).toBe(false)
    expect(customerListView.customers(actor.getSnapshot()).map((c) => c.name)).toEqual([
      'Acme',
      'Globex',
      'Zenith',
    ])
  })
})
