import { assign, fromPromise, setup } from 'xstate'
import type { Subscription, Usage } from '../../contract/billing.ts'
import { mustBeProvidedIn } from '../actors.ts'

export interface PlanUsage {
  usage: Usage
  subscription: Subscription['subscription']
}

/**
 * Settings → Plan: the tier, its subscription and what is used of each limit (a bar per limit).
 * Loaded when the page opens and on `refresh`; a failed load says so and offers a retry.
 */
export const planUsageMachine = setup({
  types: {
    context: {} as { plan: PlanUsage | null; failed: boolean },
    events: {} as { type: 'refresh' },
    tags: {} as 'loading',
  },
  actors: {
    loadPlanUsage: fromPromise<PlanUsage, void>(
      mustBeProvidedIn('planUsageMachine')('loadPlanUsage'),
    ),
  },
}).createMachine({
  id: 'planUsage',
  context: { plan: null, failed: false },
  initial: 'loading',
  states: {
    loading: {
      description: 'Reads the usage and the subscription.',
      tags: ['loading'],
      invoke: {
        id: 'loadPlanUsage',
        src: 'loadPlanUsage',
        onDone: {
          target: 'ready',
          actions: assign({ plan: ({ event }) => event.output, failed: false }),
        },
        onError: { target: 'failed', actions: assign({ failed: true }) },
      },
    },
    ready: { description: 'The plan and a bar per limit.', on: { refresh: 'loading' } },
    failed: { description: 'The plan could not be read: a retry.', on: { refresh: 'loading' } },
  },
})
