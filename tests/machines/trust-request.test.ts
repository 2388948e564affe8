import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { TrustRequestCreate } from '../../contract/trust.ts'
import * as view from '../../machines/trust-request/index.ts'
import { trustRequestMachine, trustRequestView } from '../../machines/trust-request/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

type Sent = { slug: string; request: TrustRequestCreate }
const pending = pendingActors(trustRequestMachine)
const filled = {
  name: 'Priya Shah',
  email: 'priya@acme.test',
  company: 'Acme',
  reason: 'Vendor review',
  nda_accepted: true,
}
const events: AnyEventObject[] = [
  { type: 'start' },
  { type: 'edit', change: filled },
  { type: 'submit' },
  { type: 'cancel' },
  { type: 'nda', version: 2 },
  { type: 'xstate.done.actor.sendRequest', output: { status: 'pending' } },
  {
    type: 'xstate.error.actor.sendRequest',
    error: Object.assign(new Error('The NDA changed'), { status: 409 }),
  },
  { type: 'xstate.error.actor.sendRequest', error: new Error('offline') },
]
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('trustRequestMachine', () => {
  testEveryPath(pending, events, { view, input: { slug: 'acme', ndaVersion: 1 } })

  test('needs the NDA accepted; a changed NDA is read and accepted again', async () => {
    const sent: Sent[] = []
    let version = 2
    const actor = createActor(
      trustRequestMachine.provide({
        actors: {
          sendRequest: fromPromise<{ status: 'approved' | 'pending' }, Sent>(async ({ input }) => {
            sent.push(input)
            if (input.request.nda_version !== version)
              throw Object.assign(new Error('The NDA changed'), { status: 409 })
            return { status: 'pending' }
          }),
        },
      }),
      { input: { slug: 'acme', ndaVersion: 1 } },
    ).start()
    const changed: string[] = []
    actor.on('ndaChanged', (event) => changed.push(event.type))
    actor.send({ type: 'start' })
    actor.send({ type: 'edit', change: { ...filled, nda_accepted: false } })
    actor.send({ type: 'submit' })
    expect(trustRequestView.error(actor.getSnapshot())).toBe('Accept the NDA to request access.')
    expect(sent).toEqual([])
    actor.send({ type: 'edit', change: { nda_accepted: true } })
    actor.send({ type: 'submit' })
    await settle()
    expect(changed).toEqual(['ndaChanged'])
    expect(trustRequestView.form(actor.getSnapshot()).nda_accepted).toBe(false)
    actor.send({ type: 'nda', version })
    actor.send({ type: 'edit', change: { nda_accepted: true } })
    actor.send({ type: 'submit' })
    await settle()
    expect(sent.at(-1)?.request).toMatchObject({ nda_accepted: true, nda_version: 2 })
    expect(trustRequestView.sent(actor.getSnapshot())).toBe(true)
    expect(trustRequestView.outcome(actor.getSnapshot())).toBe('pending')
    version = 3
  })
})
