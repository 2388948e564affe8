import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import * as view from '../../machines/plan-usage/index.ts'
import {
  type PlanUsage,
  planUsageMachine,
  planUsageView,
  shareOf,
} from '../../machines/plan-usage/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const plan: PlanUsage = {
  usage: {
    tier: 'free',
    tier_name: 'Free',
    is_evaluation: false,
    multi_language: false,
    is_active: true,
    expiration_date: null,
    limits: [{ name: 'max_users', label: 'People', used: 3, max: 3 }],
  },
  subscription: null,
}
const pending = pendingActors(planUsageMachine)
const events: AnyEventObject[] = [
  { type: 'refresh' },
  { type: 'xstate.done.actor.loadPlanUsage', output: plan },
  { type: 'xstate.error.actor.loadPlanUsage', error: new Error('offline') },
]

describe('planUsageMachine', () => {
  testEveryPath(pending, events, { view })

  test('reads the plan, and a failed read offers a retry that reads again', async () => {
    let fail = true
    const actor = createActor(
      planUsageMachine.provide({
        actors: {
          loadPlanUsage: fromPromise<PlanUsage, void>(async () => {
            if (fail) throw new Error('offline')
            return plan
          }),
        },
      }),
    ).start()
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(planUsageView.failed(actor.getSnapshot())).toBe(true)
    fail = false
    actor.send({ type: 'refresh' })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(planUsageView.plan(actor.getSnapshot())).toEqual(plan)
  })

  test('a bar is full at the limit and empty with no limit', () => {
    expect(shareOf(3, 3)).toBe(1)
    expect(shareOf(4, 3)).toBe(1)
    expect(shareOf(1, 4)).toBe(0.25)
    expect(shareOf(10, null)).toBe(0)
  })
})
