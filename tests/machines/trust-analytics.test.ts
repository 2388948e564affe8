import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { TrustAnalytics } from '../../contract/trust.ts'
import * as view from '../../machines/trust-analytics/index.ts'
import { trustAnalyticsMachine, trustAnalyticsView } from '../../machines/trust-analytics/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const figures = (days: number): TrustAnalytics => ({
  days,
  series: [],
  totals: { views: 3, requests: 1, approvals: 1, downloads: 2 },
  documents: [],
  companies: [],
})
const pending = pendingActors(trustAnalyticsMachine)
const events: AnyEventObject[] = [
  { type: 'period', days: 7 },
  { type: 'retry' },
  { type: 'xstate.done.actor.loadAnalytics', output: figures(30) },
  { type: 'xstate.error.actor.loadAnalytics', error: new Error('offline') },
]
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('trustAnalyticsMachine', () => {
  testEveryPath(pending, events, { view })

  test('reads the period chosen', async () => {
    const asked: number[] = []
    const actor = createActor(
      trustAnalyticsMachine.provide({
        actors: {
          loadAnalytics: fromPromise<TrustAnalytics, { days: number }>(async ({ input }) => {
            asked.push(input.days)
            return figures(input.days)
          }),
        },
      }),
    ).start()
    await settle()
    actor.send({ type: 'period', days: 90 })
    await settle()
    expect(asked).toEqual([30, 90])
    expect(trustAnalyticsView.analytics(actor.getSnapshot())?.days).toBe(90)
  })
})
