import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import * as view from '../../machines/notification-preferences/index.ts'
import {
  type Channels,
  notificationPreferencesMachine,
  notificationPreferencesView,
} from '../../machines/notification-preferences/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const both: Channels = {
  assigned: 'both',
  mentioned: 'both',
  changes_requested: 'both',
  approved: 'both',
  due_soon: 'both',
  overdue: 'both',
  trust_request: 'both',
}

const pending = pendingActors(notificationPreferencesMachine)
const at = (kind: 'done' | 'error', path: string) =>
  `xstate.${kind}.actor.0.notificationPreferences.${path}`
const events: AnyEventObject[] = [
  { type: 'retry' },
  { type: 'choose', kind: 'approved', channel: 'in_app' },
  { type: 'choose', kind: 'approved', channel: 'both' },
  { type: at('done', 'loading'), output: both },
  { type: at('error', 'loading'), error: new Error('offline') },
  { type: at('done', 'ready.saving'), output: { ...both, approved: 'in_app' } },
  { type: at('error', 'ready.saving'), error: new Error('offline') },
]

const tick = () => new Promise((r) => setTimeout(r, 0))

describe('notificationPreferencesMachine', () => {
  testEveryPath(pending, events, {
    view,
    identity: (s) => [s.context.preferences?.approved ?? null, Boolean(s.context.error)],
  })

  test('saves each choice at once, the whole set', async () => {
    const saved: Channels[] = []
    const actor = createActor(
      notificationPreferencesMachine.provide({
        actors: {
          loadPreferences: fromPromise(async () => both),
          savePreferences: fromPromise<Channels, Channels>(async ({ input }) => {
            saved.push(input)
            return input
          }),
        },
      }),
    ).start()
    await tick()
    actor.send({ type: 'choose', kind: 'mentioned', channel: 'email' })
    expect(notificationPreferencesView.saving(actor.getSnapshot())).toBe(true)
    expect(notificationPreferencesView.preferences(actor.getSnapshot())?.mentioned).toBe('email')
    await tick()
    expect(saved).toEqual([{ ...both, mentioned: 'email' }])
    expect(notificationPreferencesView.saved(actor.getSnapshot())).toBe(true)
    // the same choice again is no change
    actor.send({ type: 'choose', kind: 'mentioned', channel: 'email' })
    expect(saved).toHaveLength(1)
  })

  test('a refused save puts back what was saved and says so', async () => {
    const actor = createActor(
      notificationPreferencesMachine.provide({
        actors: {
          loadPreferences: fromPromise(async () => both),
          savePreferences: fromPromise<Channels, Channels>(async () => {
            throw new Error('The server is away')
          }),
        },
      }),
    ).start()
    await tick()
    actor.send({ type: 'choose', kind: 'overdue', channel: 'off' })
    await tick()
    const snapshot = actor.getSnapshot()
    expect(notificationPreferencesView.preferences(snapshot)?.overdue).toBe('both')
    expect(notificationPreferencesView.error(snapshot)).toBe('The server is away')
  })
})
