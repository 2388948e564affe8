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
}).createMachine({
  id: 'customerList',
  type: 'parallel',
  context: { customers: [], loaded: false, error: null, values: EMPTY, errors: {}, failure: null },
  states: {
    list: {
      initial: 'loading',
      states: {
        loading: {
          tags: 'loading',
          invoke: {
            src: 'loadCustomers',
            onDone: {
              target: 'ready',
              actions: assign(({ event }) => ({
                customers: event.output,
                loaded: true,
                error: null,
              })),
            },
            onError: {
              target: 'failed',
              actions: assign(({ event }) => ({
                error: errorMessage(event.error, COLLABORATION_TEXTS.customersLoadFailed),
              })),
            },
          },
        },
        ready: { on: { refresh: 'loading' } },
        failed: { on: { retry: 'loading', refresh: 'loading' } },
      },
    },
    create: {
      initial: 'closed',
      states: {
        closed: {
          description: 'No dialog.',
          on: {
            'create.open': {
              target: 'editing',
              actions: assign({ values: EMPTY, errors: {}, failure: null }),
            },
          },
        },
        editing: {
          description: 'The name and domain as typed; errors show after a submit.',
          on: {
            'create.close': 'closed',
            'create.change': {
              actions: assign(({ context, event }) => ({
                values: { ...context.values, [event.field]: event.value },
                errors: { ...context.errors, [event.field]: undefined },
                failure: null,
              })),
            },
            'create.submit': [
              { guard: 'isValid', target: 'saving' },
              { actions: assign(({ context }) => ({ errors: checkCustomer(context.values) })) },
            ],
          },
        },
        saving: {
          tags: 'busy',
          invoke: {
            src: 'createCustomer',
            input: ({ context }) => bodyOf(context.values),
            onDone: {
              target: 'closed',
              actions: [
                assign(({ context, event }) => ({
                  customers: [...context.customers, event.output.customer].sort((a, b) =>
                    a.name.localeCompare(b.name),
                  ),
                })),
                emit(({ event }) => ({
                  type: 'created' as const,
                  customer: event.output.customer,
                })),
              ],
            },
            onError: {
              target: 'editing',
              actions: assign(({ event }) => ({
                failure: errorMessage(event.error, COLLABORATION_TEXTS.customerAddFailed),
              })),
            },
          },
        },
      },
    },
  },
})
