import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { PublicTrustPage } from '../../contract/trust.ts'
import * as view from '../../machines/trust-centre/index.ts'
import { trustCentreMachine, trustCentreView } from '../../machines/trust-centre/index.ts'
import { trustPageOf } from '../fixtures/trust.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const page = trustPageOf()
const failure = (status: number) =>
  Object.assign(new Error('This page is not available.'), { status })
const pending = pendingActors(trustCentreMachine)
const events: AnyEventObject[] = [
  { type: 'retry' },
  { type: 'reload' },
  { type: 'xstate.done.actor.loadPage', output: page },
  { type: 'xstate.error.actor.loadPage', error: failure(404) },
  { type: 'xstate.error.actor.loadPage', error: failure(500) },
]
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('trustCentreMachine', () => {
  testEveryPath(pending, events, { view, input: { slug: 'acme' } })

  test('an unknown page is unavailable; an outage offers a retry', async () => {
    let status = 500
    const actor = createActor(
      trustCentreMachine.provide({
        actors: {
          loadPage: fromPromise<PublicTrustPage, { slug: string }>(async () => {
            throw failure(status)
          }),
        },
      }),
      { input: { slug: 'nobody' } },
    ).start()
    await settle()
    expect(trustCentreView.failed(actor.getSnapshot())).toBe(true)
    status = 404
    actor.send({ type: 'retry' })
    await settle()
    expect(trustCentreView.unavailable(actor.getSnapshot())).toBe(true)
  })
})
