import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { Webhook, WebhookCreate, WebhookDelivery } from '../../contract/platform.ts'
import * as view from '../../machines/webhooks/index.ts'
import { webhooksMachine, webhooksView } from '../../machines/webhooks/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const hook: Webhook = {
  id: 3,
  url: 'https://hooks.example.com/quire',
  events: ['answer.approved'],
  kind: 'standard',
  description: '',
  enabled: false,
  disabled_reason: 'Disabled after a day of failed deliveries',
  failing_since: '2026-11-27T10:00:00Z',
  created_at: '2026-11-20T10:00:00Z',
}
const delivery: WebhookDelivery = {
  id: 9,
  message_id: 'msg_1',
  event: 'answer.approved',
  status: 'failed',
  attempts: [
    { attempt: 1, status_code: 500, latency_ms: 12, error: 'HTTP 500', at: '2026-11-27T10:00:00Z' },
  ],
  next_attempt_at: null,
  created_at: '2026-11-27T10:00:00Z',
  payload: {},
}
const pending = pendingActors(webhooksMachine)
const events: AnyEventObject[] = [
  { type: 'start' },
  { type: 'edit', change: { url: 'https://hooks.example.com/quire', events: ['answer.approved'] } },
  { type: 'create' },
  { type: 'cancel' },
  { type: 'done' },
  { type: 'remove', hook },
  { type: 'confirm' },
  { type: 'enable', hook },
  { type: 'open', hook },
  { type: 'replay', delivery },
  { type: 'close' },
  { type: 'retry' },
  { type: 'xstate.done.actor.loadHooks', output: [hook] },
  { type: 'xstate.error.actor.loadHooks', error: new Error('offline') },
  { type: 'xstate.done.actor.createHook', output: { ...hook, id: 4, secret: 'whsec_x' } },
  {
    type: 'xstate.error.actor.createHook',
    error: new Error('A webhook’s address starts with https://'),
  },
  { type: 'xstate.done.actor.removeHook', output: undefined },
  { type: 'xstate.error.actor.removeHook', error: new Error('Not found.') },
  { type: 'xstate.done.actor.enableHook', output: { ...hook, enabled: true } },
  { type: 'xstate.error.actor.enableHook', error: new Error('Not found.') },
  { type: 'xstate.done.actor.loadDeliveries', output: [delivery] },
  { type: 'xstate.done.actor.loadDeliveries', output: [{ ...delivery, status: 'pending' }] },
  { type: 'xstate.error.actor.loadDeliveries', error: new Error('offline') },
  { type: 'xstate.done.actor.replayDelivery', output: undefined },
  { type: 'xstate.error.actor.replayDelivery', error: new Error('Not found.') },
]
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('webhooksMachine', () => {
  testEveryPath(pending, events, {
    view,
    identity: (s) => [
      s.context.form.url !== '' && s.context.form.events.length > 0,
      s.context.deliveries.some((d) => d.status === 'pending'),
    ],
  })

  test('registers an endpoint whose secret shows once, and replays a delivery from its log', async () => {
    const sent: WebhookCreate[] = []
    const replayed: number[] = []
    const actor = createActor(
      webhooksMachine.provide({
        actors: {
          loadHooks: fromPromise<Webhook[], void>(async () => [hook]),
          createHook: fromPromise<Webhook & { secret: string }, WebhookCreate>(
            async ({ input }) => {
              sent.push(input)
              return { ...hook, id: 4, enabled: true, secret: 'whsec_shown_once' }
            },
          ),
          removeHook: fromPromise<void, { id: number }>(async () => undefined),
          enableHook: fromPromise<Webhook, { id: number }>(async () => ({
            ...hook,
            enabled: true,
          })),
          loadDeliveries: fromPromise<WebhookDelivery[], { id: number }>(async () => [delivery]),
          replayDelivery: fromPromise<void, { id: number; delivery: number }>(async ({ input }) => {
            replayed.push(input.delivery)
          }),
        },
      }),
    ).start()
    await settle()
    actor.send({ type: 'start' })
    actor.send({ type: 'create' })
    expect(webhooksView.error(actor.getSnapshot())).toMatch(/at least one event/)
    actor.send({
      type: 'edit',
      change: { url: ' https://hooks.example.com/new ', events: ['answer.approved'] },
    })
    actor.send({ type: 'create' })
    await settle()
    expect(sent[0]).toEqual({
      url: 'https://hooks.example.com/new',
      events: ['answer.approved'],
      kind: 'standard',
    })
    expect(webhooksView.created(actor.getSnapshot())?.secret).toBe('whsec_shown_once')
    actor.send({ type: 'done' })
    actor.send({ type: 'open', hook })
    await settle()
    expect(webhooksView.deliveries(actor.getSnapshot())).toHaveLength(1)
    actor.send({ type: 'replay', delivery })
    await settle()
    await settle()
    expect(replayed).toEqual([9])
  })
})
