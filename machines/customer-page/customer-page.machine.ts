import { assign, fromPromise, setup } from 'xstate'
import { COLLABORATION_TEXTS, type CustomerPage } from '../../contract/collaboration.ts'
import { errorMessage } from '../../contract/errors.ts'
import { mustBeProvidedIn } from '../actors.ts'

/**
 * A customer's page (issues 28 and 29): the customer and its questionnaires, each year's
 * submissions together, newest first. A failed load (another organisation's customer, a lost
 * connection) says why and can be retried.
 */

export interface CustomerPageContext {
  id: number
  page: CustomerPage | null
  /** The page's questionnaires by the year each was received. */
  years: YearGroup[]
  error: string | null
}

export type CustomerPageEvents = { type: 'retry' }

/** A year and its questionnaires, newest year first (the server sends them newest first). */
export type YearGroup = { year: number; questionnaires: CustomerPage['questionnaires'] }

export function byYear(questionnaires: CustomerPage['questionnaires']): YearGroup[] {
  const groups: YearGroup[] = []
  for (const item of questionnaires) {
    const group = groups.find((entry) => entry.year === item.year)
    if (group) group.questionnaires.push(item)
    else groups.push({ year: item.year, questionnaires: [item] })
  }
  return groups.sort((a, b) => b.year - a.year)
}

const mustBeProvided = mustBeProvidedIn('customerPageMachine')

export const customerPageMachine = setup({
  types: {
    context: {} as CustomerPageContext,
    events: {} as CustomerPageEvents,
    input: {} as { id: number },
  },
  actors: {
    loadCustomer: fromPromise<CustomerPage, { id: number }>(mustBeProvided('loadCustomer')),
  },
}).createMachine({
  id: 'customerPage',
  context: ({ input }) => ({ id: input.id, page: null, years: [], error: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: 'loading',
      invoke: {
        src: 'loadCustomer',
        input: ({ context }) => ({ id: context.id }),
        onDone: {
          target: 'ready',
          actions: assign(({ event }) => ({
            page: event.output,
            years: byYear(event.output.questionnaires),
          })),
        },
        onError: {
          target: 'failed',
          actions: assign(({ event }) => ({
            error: errorMessage(event.error, COLLABORATION_TEXTS.customerLoadFailed),
          })),
        },
      },
    },
    ready: {},
    failed: { on: { retry: { target: 'loading', actions: assign({ error: null }) } } },
  },
})

/** Past its due date (YYYY-MM-DD, read against today's) and not yet sent. */
export const isOverdue = (
  item: { due_date: string | null; work_status: string },
  today = new Date().toLocaleDateString('en-CA'),
) => item.due_date !== null && item.due_date < today && item.work_status !== 'sent'
