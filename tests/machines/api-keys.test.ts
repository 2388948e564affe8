import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { ApiKey, ApiKeyCreate, ApiKeyCreated } from '../../contract/platform.ts'
import * as view from '../../machines/api-keys/index.ts'
import { apiKeysMachine, apiKeysView, createOf } from '../../machines/api-keys/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const key: ApiKey = {
  id: 4,
  name: 'CRM',
  prefix: 'qk_abcdef',
  scopes: ['read'],
  created_at: '2026-11-28T10:00:00Z',
  created_by: { id: 1, name: 'Ada Admin' },
  last_used_at: null,
  expires_at: null,
  revoked_at: null,
}
const created: ApiKeyCreated = { ...key, id: 5, key: `qk_${'a'.repeat(43)}` }
const pending = pendingActors(apiKeysMachine)
const events: AnyEventObject[] = [
  { type: 'start' },
  { type: 'edit', change: { name: 'CRM' } },
  { type: 'create' },
  { type: 'cancel' },
  { type: 'done' },
  { type: 'revoke', key },
  { type: 'confirm' },
  { type: 'retry' },
  { type: 'xstate.done.actor.loadKeys', output: [key] },
  { type: 'xstate.error.actor.loadKeys', error: new Error('offline') },
  { type: 'xstate.done.actor.createKey', output: created },
  { type: 'xstate.error.actor.createKey', error: new Error('An expiry date is in the future') },
  { type: 'xstate.done.actor.revokeKey', output: { ...key, revoked_at: '2026-11-29T00:00:00Z' } },
  { type: 'xstate.error.actor.revokeKey', error: new Error('This API key is already revoked.') },
]
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('apiKeysMachine', () => {
  // the keys made along a path grow the list: states are told apart by their value and whether
  // the form is named, not by the list
  testEveryPath(pending, events, { view, identity: (s) => [s.context.form.name !== ''] })

  test('makes a key shown once, and revokes one after confirmation', async () => {
    const sent: ApiKeyCreate[] = []
    const actor = createActor(
      apiKeysMachine.provide({
        actors: {
          loadKeys: fromPromise<ApiKey[], void>(async () => [key]),
          createKey: fromPromise<ApiKeyCreated, ApiKeyCreate>(async ({ input }) => {
            sent.push(input)
            return created
          }),
          revokeKey: fromPromise<ApiKey, { id: number }>(async ({ input }) => ({
            ...key,
            id: input.id,
            revoked_at: '2026-11-29T00:00:00Z',
          })),
        },
      }),
    ).start()
    await settle()
    actor.send({ type: 'start' })
    actor.send({ type: 'create' })
    expect(apiKeysView.error(actor.getSnapshot())).toBe('Name the key')
    actor.send({
      type: 'edit',
      change: { name: ' Ticketing ', access: 'write', expires: '2027-01-31' },
    })
    actor.send({ type: 'create' })
    await settle()
    expect(sent).toEqual([
      { name: 'Ticketing', scopes: ['read', 'write'], expires_at: '2027-01-31T23:59:59.000Z' },
    ])
    expect(apiKeysView.created(actor.getSnapshot())?.key).toBe(created.key)
    actor.send({ type: 'done' })
    expect(apiKeysView.created(actor.getSnapshot())).toBeNull()
    actor.send({ type: 'revoke', key })
    expect(apiKeysView.confirming(actor.getSnapshot())).toBe(true)
    actor.send({ type: 'confirm' })
    await settle()
    expect(apiKeysView.keys(actor.getSnapshot()).find((k) => k.id === 4)?.revoked_at).not.toBeNull()
  })

  test('a key without expiry sends none', () => {
    expect(createOf({ name: 'x', access: 'read', expires: '' })).toEqual({
      name: 'x',
      scopes: ['read'],
      expires_at: null,
    })
  })
})
