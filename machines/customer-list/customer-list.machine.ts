import { assign, emit, fromPromise, setup } from 'xstate'
import { safeParse } from 'zod/v4/core'
import {
  COLLABORATION_TEXTS,
  type Customer,
  type CustomerCreate,
  type CustomerPage,
  customerCreateSchema,
} from '../../contract/collaboration.ts'
import { errorMessage } from '../../contract/errors.ts'
import { mustBeProvidedIn } from '../actors.ts'
import type {
  CustomerField,
  CustomerListContext,
  CustomerListEmitted,
  CustomerListEvents,
} from './customer-list.types.ts'

/**
 * The customers an organisation keeps (issue 29): the list (also the choices of the
 * questionnaires page's customer filter and work dialog), and a "New customer" dialog with a name
 * and a domain, checked with the contract's rules; a name already taken is refused by the server
 * (409) in its words.
 */

const EMPTY = { name: '', domain: '' }
const bodyOf = (values: Record<CustomerField, string>): CustomerCreate => ({
  name: values.name,
  domain: values.domain.trim() || null,
})

/** Each field's first problem, in the contract's words. */
export function checkCustomer(
  values: Record<CustomerField, string>,
): Partial<Record<CustomerField, string>> {
  const result = safeParse(customerCreateSchema, bodyOf(values))
  if (result.success) return {}
  const errors: Partial<Record<CustomerField, string>> = {}
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '') as CustomerField
    errors[field] ??= issue.message
  }
  return errors
}

const mustBeProvided = mustBeProvidedIn('customerListMachine')

const errorOf = ({ event }: { event: { error: unknown } }) => event.error

export const customerListMachine = setup({
  types: {
    context: {} as CustomerListContext,
    events: {} as CustomerListEvents,
    emitted: {} as CustomerListEmitted,
  },
  actors: {
    loadCustomers: fromPromise<Customer[], void>(mustBeProvided('loadCustomers')),
    createCustomer: fromPromise<CustomerPage, CustomerCreate>(mustBeProvided('createCustomer')),
  },
  guards: {
    isValid: ({ context }) => Object.keys(checkCustomer(context.values)).length === 0,
  },
  actions: {
    setCustomers: assign((_, customers: Customer[]) => ({ customers, loaded: true, error: null })),
    showListError: assign((_, error: unknown) => ({
      error: errorMessage(error, COLLABORATION_TEXTS.customersLoadFailed),
    })),
    startCreate: assign({ values: EMPTY, errors: {}, failure: null }),
    change: assign(({ context }, change: { field: CustomerField; value: string }) => ({
      values: { ...context.values, [change.field]: change.value },
      errors: { ...context.errors, [change.field]: undefined },
      failure: null,
    })),
    showErrors: assign(({ context }) => ({ errors: checkCustomer(context.values) })),
    addCustomer: assign(({ context }, customer: Customer) => ({
      customers: [...context.customers, customer].sort((a, b) => a.name.localeCompare(b.name)),
    })),
    announce: emit((_, customer: Customer) => ({ type: 'created' as const, customer })),
    showFailure: assign((_, error: unknown) => ({
      failure: errorMessage(error, COLLABORATION_TEXTS.customerAddFailed),
    })),
  },
}).createMachine({
  id: 'customerList',
  type: 'parallel',
  context: { customers: [], loaded: false, error: null, values: EMPTY, errors: {}, failure: null },
  states: {
    list: {
      description: 'The customers the organisation keeps.',
      initial: 'loading',
      states: {
        loading: {
          description: 'The customers are read.',
          tags: 'loading',
          invoke: {
            src: 'loadCustomers',
            onDone: {
              target: 'ready',
              actions: { type: 'setCustomers', params: ({ event }) => event.output },
            },
            onError: { target: 'failed', actions: { type: 'showListError', params: errorOf } },
          },
        },
        ready: { description: 'The list, in name order.', on: { refresh: 'loading' } },
        failed: {
          description: 'The list could not be read: says why, and Retry.',
          on: { retry: 'loading', refresh: 'loading' },
        },
      },
    },
    create: {
      description: 'The "New customer" dialog.',
      initial: 'closed',
      states: {
        closed: {
          description: 'No dialog.',
          on: { 'create.open': { target: 'editing', actions: 'startCreate' } },
        },
        editing: {
          description: 'The name and domain as typed; errors show after a submit.',
          on: {
            'create.close': 'closed',
            'create.change': { actions: { type: 'change', params: ({ event }) => event } },
            'create.submit': [{ guard: 'isValid', target: 'saving' }, { actions: 'showErrors' }],
          },
        },
        saving: {
          description:
            'The customer is added; a name already taken is refused in the server’s words.',
          tags: 'busy',
          invoke: {
            src: 'createCustomer',
            input: ({ context }) => bodyOf(context.values),
            onDone: {
              target: 'closed',
              actions: [
                { type: 'addCustomer', params: ({ event }) => event.output.customer },
                { type: 'announce', params: ({ event }) => event.output.customer },
              ],
            },
            onError: { target: 'editing', actions: { type: 'showFailure', params: errorOf } },
          },
        },
      },
    },
  },
})
