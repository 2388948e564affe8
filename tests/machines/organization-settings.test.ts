import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { Organization, OrganizationUpdate } from '../../contract/organization.ts'
import {
  organizationSettingsMachine,
  organizationSettingsView,
} from '../../machines/organization-settings/index.ts'
import { testEveryPath } from './every-path.ts'

const org: Organization = {
  id: 1,
  name: 'Acme',
  verified_domains: ['acme.test'],
  dns_verified_domains: [],
  answer_tone: 'neutral',
  answer_length: 'standard',
  logo_updated_at: null,
}
const never = <T>() => new Promise<T>(() => {})
const pending = organizationSettingsMachine.provide({
  actors: {
    loadOrganization: fromPromise<Organization, void>(never),
    saveOrganization: fromPromise<Organization, OrganizationUpdate>(never),
  },
})
const events: AnyEventObject[] = [
  { type: 'edit', change: { name: 'Acme Security' } },
  { type: 'domain.type', value: 'Other.test' },
  { type: 'domain.add' },
  { type: 'domain.remove', domain: 'acme.test' },
  { type: 'reset' },
  { type: 'save' },
  { type: 'retry' },
  { type: 'xstate.done.actor.loadOrganization', output: org },
  { type: 'xstate.error.actor.loadOrganization', error: new Error('offline') },
  { type: 'xstate.done.actor.saveOrganization', output: { ...org, name: 'Acme Security' } },
  { type: 'xstate.error.actor.saveOrganization', error: new Error('acme.test is taken') },
]

describe('organizationSettingsMachine', () => {
  testEveryPath(pending, events, { identity: (s) => [Boolean(s.context.error)] })

  test('edits, adds a domain, saves once, says it saved; a refusal keeps the form and its reason', async () => {
    const saves: OrganizationUpdate[] = []
    let refuse = true
    const actor = createActor(
      organizationSettingsMachine.provide({
        actors: {
          loadOrganization: fromPromise<Organization, void>(async () => org),
          saveOrganization: fromPromise<Organization, OrganizationUpdate>(async ({ input }) => {
            saves.push(input)
            if (refuse) throw new Error('other.test is not a domain of an admin')
            return { ...org, ...input } as Organization
          }),
        },
      }),
    ).start()
    const emitted: AnyEventObject[] = []
    actor.on('*', (event) => emitted.push(event))
    await new Promise((r) => setTimeout(r, 0))
    const view = () => organizationSettingsView.form(actor.getSnapshot())
    actor.send({ type: 'edit', change: { name: 'Acme Security' } })
    actor.send({ type: 'domain.type', value: ' Other.TEST ' })
    actor.send({ type: 'domain.add' })
    expect(view().verified_domains).toEqual(['acme.test', 'other.test'])
    expect(organizationSettingsView.changed(actor.getSnapshot())).toBe(true)
    actor.send({ type: 'save' })
    await new Promise((r) => setTimeout(r, 0))
    expect(organizationSettingsView.error(actor.getSnapshot())).toBe(
      'other.test is not a domain of an admin',
    )
    expect(view().name).toBe('Acme Security')
    refuse = false
    actor.send({ type: 'domain.remove', domain: 'other.test' })
    actor.send({ type: 'save' })
    await new Promise((r) => setTimeout(r, 0))
    expect(saves).toHaveLength(2)
    expect(emitted.map((e) => e.type)).toEqual(['saved'])
    expect(organizationSettingsView.changed(actor.getSnapshot())).toBe(false)
  })
})
