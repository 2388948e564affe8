import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { SsoSettings, SsoSettingsUpdate } from '../../contract/sso.ts'
import * as view from '../../machines/sso-settings/index.ts'
import { ssoSettingsMachine, ssoSettingsView, updateOf } from '../../machines/sso-settings/index.ts'
import { ssoSettingsOf } from '../fixtures/sso.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const saved = ssoSettingsOf()
const pending = pendingActors(ssoSettingsMachine)
const events: AnyEventObject[] = [
  { type: 'edit', change: { enforce_sso: true } },
  { type: 'save' },
  { type: 'test' },
  { type: 'reset' },
  { type: 'retry' },
  { type: 'xstate.done.actor.loadSso', output: saved },
  { type: 'xstate.error.actor.loadSso', error: new Error('offline') },
  { type: 'xstate.done.actor.saveSso', output: saved },
  { type: 'xstate.error.actor.saveSso', error: new Error('acme.org is not a verified domain') },
  { type: 'xstate.done.actor.testSso', output: { ok: true, message: 'ok' } },
  { type: 'xstate.error.actor.testSso', error: new Error('unreachable') },
]
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('ssoSettingsMachine', () => {
  testEveryPath(pending, events, { view })

  test('sends the secret only when typed, tests and saves, and says why a save is refused', async () => {
    const sent: SsoSettingsUpdate[] = []
    let refuse = true
    const actor = createActor(
      ssoSettingsMachine.provide({
        actors: {
          loadSso: fromPromise<SsoSettings, void>(async () => saved),
          saveSso: fromPromise<SsoSettings, SsoSettingsUpdate>(async ({ input }) => {
            sent.push(input)
            if (refuse) throw new Error('acme.org is not a verified domain')
            return { ...saved, enforce_sso: true }
          }),
          testSso: fromPromise<{ ok: boolean; message: string }, SsoSettingsUpdate>(async () => ({
            ok: true,
            message: 'The identity provider answered',
          })),
        },
      }),
    )
    let saves = 0
    actor.on('saved', () => {
      saves += 1
    })
    actor.start()
    await settle()
    expect(ssoSettingsView.form(actor.getSnapshot()).client_secret).toBe('')
    expect(updateOf(ssoSettingsView.form(actor.getSnapshot())).client_secret).toBeNull()
    actor.send({ type: 'test' })
    await settle()
    expect(ssoSettingsView.tested(actor.getSnapshot())).toEqual({
      ok: true,
      message: 'The identity provider answered',
    })
    actor.send({ type: 'edit', change: { enforce_sso: true, domains: ['acme.org'] } })
    actor.send({ type: 'save' })
    await settle()
    expect(ssoSettingsView.error(actor.getSnapshot())).toBe('acme.org is not a verified domain')
    refuse = false
    actor.send({ type: 'save' })
    await settle()
    expect(saves).toBe(1)
    expect(sent.at(-1)).toMatchObject({ enforce_sso: true, client_secret: null })
    expect(ssoSettingsView.form(actor.getSnapshot()).enforce_sso).toBe(true)
  })
})
