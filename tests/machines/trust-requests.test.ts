import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { TrustRequest } from '../../contract/trust.ts'
import * as view from '../../machines/trust-requests/index.ts'
import {
  type DecisionInput,
  trustRequestsMachine,
  trustRequestsView,
} from '../../machines/trust-requests/index.ts'
import { trustRequestOf } from '../fixtures/trust.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const request = (id: number, status: TrustRequest['status']) =>
  trustRequestOf({ id, email: `p${id}@acme.test`, status })
const pending = pendingActors(trustRequestsMachine)
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
  testEveryPath(pending, events, {
    view,
    // the default check found that `loading` is the first load only: a reload keeps what was
    // read on screen, with no loading sign, while the 'loading' tag is on
    except: { tags: ['loading'] },
    assertState: (s) => {
      expect(view.trustRequestsView.loading(s)).toBe(
        s.hasTag('loading') && s.context.requests.length === 0,
      )
    },
  })

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
