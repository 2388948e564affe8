import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { TrustRequest } from '../../contract/trust.ts'
import {
  type DecisionInput,
  trustRequestsMachine,
  trustRequestsView,
} from '../../machines/trust-requests/index.ts'
import { testEveryPath } from './every-path.ts'

const request = (id: number, status: TrustRequest['status']): TrustRequest => ({
  id,
  name: 'Priya Shah',
  email: `p${id}@acme.test`,
  company: 'Acme',
  reason: '',
  status,
  nda_version: 1,
  nda_accepted_at: '2026-11-28T10:00:00Z',
  address: '203.0.113.9',
  user_agent: 'Firefox',
  created_at: '2026-11-28T10:00:00Z',
  decided_at: null,
  expires_at: null,
  downloads: 0,
})
const never = <T>() => new Promise<T>(() => {})
const pending = trustRequestsMachine.provide({
  actors: {
    loadRequests: fromPromise<TrustRequest[], void>(never),
    decideRequest: fromPromise<TrustRequest, DecisionInput>(never),
  },
})
const events: AnyEventObject[] = [
  { type: 'decide', decision: { id: 1, action: 'approve' } },
  { type: 'filter', filter: 'all' },
  { type: 'retry' },
  { type: 'xstate.done.actor.loadRequests', output: [request(1, 'pending')] },
  { type: 'xstate.error.actor.loadRequests', error: new Error('offline') },
  { type: 'xstate.done.actor.refreshRequests', output: [request(1, 'pending')] },
  { type: 'xstate.error.actor.refreshRequests', error: new Error('offline') },
  { type: 'xstate.done.actor.decideRequest', output: request(1, 'approved') },
  { type: 'xstate.error.actor.decideRequest', error: new Error('Only a pending request') },
]
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('trustRequestsMachine', () => {
  testEveryPath(pending, events)

  test('approves a pending request, tells the page, and reads the queue again', async () => {
    let list = [request(1, 'pending'), request(2, 'approved')]
    const decided: DecisionInput[] = []
    const actor = createActor(
      trustRequestsMachine.provide({
        actors: {
          loadRequests: fromPromise<TrustRequest[], void>(async () => list),
          decideRequest: fromPromise<TrustRequest, DecisionInput>(async ({ input }) => {
            decided.push(input)
            list = [request(1, 'approved'), request(2, 'approved')]
            return request(1, 'approved')
          }),
        },
      }),
    ).start()
    const told: string[] = []
    actor.on('decided', (event) => told.push(event.action))
    await settle()
    expect(trustRequestsView.shown(actor.getSnapshot()).map((r) => r.id)).toEqual([1])
    expect(trustRequestsView.pendingCount(actor.getSnapshot())).toBe(1)
    actor.send({ type: 'decide', decision: { id: 1, action: 'approve', days: 14 } })
    await settle()
    await settle()
    expect(decided).toEqual([{ id: 1, action: 'approve', days: 14 }])
    expect(told).toEqual(['approve'])
    expect(trustRequestsView.shown(actor.getSnapshot())).toEqual([])
    actor.send({ type: 'filter', filter: 'approved' })
    expect(trustRequestsView.shown(actor.getSnapshot()).map((r) => r.id)).toEqual([1, 2])
  })
})
