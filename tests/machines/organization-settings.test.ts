import { describe, expect, test } from 'vitest'
import { type AnyEventObject, createActor, fromPromise } from 'xstate'
import type { DnsRecord, Organization, OrganizationUpdate } from '../../contract/organization.ts'
import * as view from '../../machines/organization-settings/index.ts'
import {
  dnsProofView,
  formAfterProof,
  organizationSettingsMachine,
  organizationSettingsView,
  selectDomainProofs,
} from '../../machines/organization-settings/index.ts'
import { pendingActors } from '../support/pending-actors.ts'
import { testEveryPath } from './every-path.ts'

const org: Organization = {
  id: 1,
  name: 'Acme',
  verified_domains: ['acme.test'],
  dns_verified_domains: [],
  answer_tone: 'neutral',
  answer_length: 'standard',
  logo_updated_at: null,
  review_cycle_days: 365,
  review_digest: true,
  export_approved_only: false,
}
const record: DnsRecord = {
  domain: 'acme.test',
  type: 'TXT',
  name: 'acme.test',
  value: 'quire-verification=abc',
}
const never = <T>() => new Promise<T>(() => {})
const pending = pendingActors(organizationSettingsMachine)
const events: AnyEventObject[] = [
  { type: 'edit', change: { name: 'Acme Security' } },
  { type: 'edit', change: { review_cycle_days: 0 } },
  { type: 'domain.type', value: 'Other.test' },
  { type: 'domain.add' },
  { type: 'domain.remove', domain: 'acme.test' },
  { type: 'reset' },
  { type: 'save' },
  { type: 'retry' },
  { type: 'dns.type', value: 'Other.test' },
  { type: 'dns.show', domain: 'acme.test' },
  { type: 'dns.show' },
  { type: 'dns.check' },
  { type: 'dns.copy' },
  { type: 'dns.close' },
  { type: 'xstate.done.actor.loadOrganization', output: org },
  { type: 'xstate.error.actor.loadOrganization', error: new Error('offline') },
  { type: 'xstate.done.actor.saveOrganization', output: { ...org, name: 'Acme Security' } },
  { type: 'xstate.error.actor.saveOrganization', error: new Error('acme.test is taken') },
  { type: 'xstate.done.actor.loadDnsRecord', output: record },
  { type: 'xstate.error.actor.loadDnsRecord', error: new Error('Enter a domain') },
  {
    type: 'xstate.done.actor.verifyDns',
    output: { ...org, dns_verified_domains: ['acme.test'] },
  },
  { type: 'xstate.error.actor.verifyDns', error: new Error('No TXT record was found') },
  { type: 'xstate.done.actor.copyText' },
  { type: 'xstate.error.actor.copyText', error: new Error('denied') },
]
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

/**
 * The settings of `org`, started against a server that keeps every save it is sent (`saves`) and
 * refuses one, with that reason, while `refusal` gives one.
 */
function againstServer(refusal: () => string | null = () => null) {
  const saves: OrganizationUpdate[] = []
  const actor = createActor(
    organizationSettingsMachine.provide({
      actors: {
        loadOrganization: fromPromise<Organization, void>(async () => org),
        saveOrganization: fromPromise<Organization, OrganizationUpdate>(async ({ input }) => {
          saves.push(input)
          const reason = refusal()
          if (reason) throw new Error(reason)
          return { ...org, ...input } as Organization
        }),
      },
    }),
  ).start()
  return { actor, saves }
}

describe('organizationSettingsMachine', () => {
  testEveryPath(pending, events, {
    view,
    identity: (s) => [
      s.context.form.review_cycle_days > 0,
      Boolean(s.context.error),
      Boolean(s.context.dnsError),
      Boolean(s.context.record),
      Boolean(s.context.dnsDomain),
    ],
  })

  test('edits, adds a domain, saves once, says it saved; a refusal keeps the form and its reason', async () => {
    let refuse = true
    const { actor, saves } = againstServer(() =>
      refuse ? 'other.test is not a domain of an admin' : null,
    )
    const emitted: AnyEventObject[] = []
    actor.on('*', (event) => emitted.push(event))
    await settle()
    const view = () => organizationSettingsView.form(actor.getSnapshot())
    actor.send({ type: 'edit', change: { name: 'Acme Security' } })
    actor.send({ type: 'domain.type', value: ' Other.TEST ' })
    actor.send({ type: 'domain.add' })
    expect(view().verified_domains).toEqual(['acme.test', 'other.test'])
    expect(organizationSettingsView.changed(actor.getSnapshot())).toBe(true)
    actor.send({ type: 'save' })
    await settle()
    expect(organizationSettingsView.error(actor.getSnapshot())).toBe(
      'other.test is not a domain of an admin',
    )
    expect(view().name).toBe('Acme Security')
    refuse = false
    actor.send({ type: 'domain.remove', domain: 'other.test' })
    actor.send({ type: 'save' })
    await settle()
    expect(saves).toHaveLength(2)
    expect(emitted.map((e) => e.type)).toEqual(['saved'])
    expect(organizationSettingsView.changed(actor.getSnapshot())).toBe(false)
  })

  test('saves the review cycle with the organisation, and says why a cycle cannot be saved', async () => {
    const { actor, saves } = againstServer()
    await settle()
    expect(organizationSettingsView.form(actor.getSnapshot()).review_cycle_days).toBe(365)
    actor.send({ type: 'edit', change: { review_cycle_days: 0 } })
    actor.send({ type: 'save' })
    expect(organizationSettingsView.error(actor.getSnapshot())).toBe(
      'The review cycle is at least 1 day',
    )
    expect(saves).toHaveLength(0)
    actor.send({ type: 'edit', change: { review_cycle_days: 180 } })
    expect(organizationSettingsView.error(actor.getSnapshot())).toBeNull()
    actor.send({ type: 'save' })
    await settle()
    expect(saves[0]?.review_cycle_days).toBe(180)
    expect(organizationSettingsView.changed(actor.getSnapshot())).toBe(false)
  })

  test('shows the TXT record of a typed domain, says why a check fails, then takes the proved organisation and keeps unsaved edits', async () => {
    const checks: string[] = []
    let published = false
    let release = () => {}
    const actor = createActor(
      organizationSettingsMachine.provide({
        actors: {
          loadOrganization: fromPromise<Organization, void>(async () => org),
          loadDnsRecord: fromPromise<DnsRecord, { domain: string }>(async ({ input }) => ({
            ...record,
            domain: input.domain,
            name: input.domain,
          })),
          verifyDns: fromPromise<Organization, { domain: string }>(async ({ input }) => {
            checks.push(input.domain)
            await new Promise<void>((resolve) => {
              release = resolve
            })
            if (!published) throw new Error(`No TXT record was found at ${input.domain}.`)
            return {
              ...org,
              verified_domains: ['acme.test', input.domain],
              dns_verified_domains: [input.domain],
            }
          }),
          copyText: fromPromise<void, { text: string }>(async () => {}),
        },
      }),
    ).start()
    const emitted: string[] = []
    actor.on('*', (event) => emitted.push(event.type))
    await settle()
    const dns = () => {
      const s = actor.getSnapshot()
      return Object.fromEntries(
        Object.entries(dnsProofView).map(([name, read]) => [name, read(s)]),
      ) as { [K in keyof typeof dnsProofView]: ReturnType<(typeof dnsProofView)[K]> }
    }
    expect(selectDomainProofs(actor.getSnapshot())).toEqual([
      { domain: 'acme.test', proof: 'mailbox' },
    ])
    // an empty field asks for nothing
    actor.send({ type: 'dns.show' })
    expect(dns().target).toBeNull()
    actor.send({ type: 'edit', change: { name: 'Acme Security' } })
    actor.send({ type: 'dns.type', value: ' Claimed.TEST ' })
    actor.send({ type: 'dns.show' })
    expect(dns()).toMatchObject({ target: 'claimed.test', loadingRecord: true, record: null })
    await settle()
    expect(dns().record).toMatchObject({ name: 'claimed.test', value: 'quire-verification=abc' })
    actor.send({ type: 'dns.copy' })
    await settle()
    expect(dns().copied).toBe(true)
    actor.send({ type: 'dns.check' })
    expect(dns().checking).toBe(true)
    // neither a save nor another record while the check runs
    actor.send({ type: 'save' })
    actor.send({ type: 'dns.show', domain: 'acme.test' })
    expect(organizationSettingsView.saving(actor.getSnapshot())).toBe(false)
    expect(dns().target).toBe('claimed.test')
    release()
    await settle()
    expect(dns()).toMatchObject({
      checking: false,
      error: 'No TXT record was found at claimed.test.',
      record: { domain: 'claimed.test' },
    })
    published = true
    actor.send({ type: 'dns.check' })
    release()
    await settle()
    expect(checks).toEqual(['claimed.test', 'claimed.test'])
    expect(dns()).toMatchObject({ verified: true, error: null })
    expect(emitted).toEqual(['dnsVerified'])
    expect(selectDomainProofs(actor.getSnapshot())).toEqual([
      { domain: 'acme.test', proof: 'mailbox' },
      { domain: 'claimed.test', proof: 'dns' },
    ])
    // the name typed before the check is still there, unsaved
    expect(organizationSettingsView.form(actor.getSnapshot()).name).toBe('Acme Security')
    expect(organizationSettingsView.changed(actor.getSnapshot())).toBe(true)
    actor.send({ type: 'dns.close' })
    expect(dns().target).toBeNull()
  })

  test('a listed domain’s record is asked for while a save runs; the save goes on and the check waits for it', async () => {
    const asked: string[] = []
    let finishSave = () => {}
    const actor = createActor(
      organizationSettingsMachine.provide({
        actors: {
          loadOrganization: fromPromise<Organization, void>(async () => org),
          saveOrganization: fromPromise<Organization, OrganizationUpdate>(async ({ input }) => {
            await new Promise<void>((resolve) => {
              finishSave = resolve
            })
            return { ...org, ...input } as Organization
          }),
          loadDnsRecord: fromPromise<DnsRecord, { domain: string }>(async ({ input }) => {
            asked.push(input.domain)
            return { ...record, domain: input.domain, name: input.domain }
          }),
          verifyDns: fromPromise<Organization, { domain: string }>(never),
        },
      }),
    ).start()
    await settle()
    const saving = () => organizationSettingsView.saving(actor.getSnapshot())
    actor.send({ type: 'edit', change: { name: 'Acme Security' } })
    actor.send({ type: 'save' })
    // another domain asked for while the first loads: only the last one is shown
    actor.send({ type: 'dns.show', domain: 'first.test' })
    actor.send({ type: 'dns.show', domain: 'acme.test' })
    await settle()
    expect(asked).toEqual(['first.test', 'acme.test'])
    expect(dnsProofView.record(actor.getSnapshot())?.domain).toBe('acme.test')
    expect(dnsProofView.field(actor.getSnapshot())).toBe('acme.test')
    expect(saving()).toBe(true)
    actor.send({ type: 'dns.check' })
    expect(dnsProofView.checking(actor.getSnapshot())).toBe(false)
    finishSave()
    await settle()
    expect(saving()).toBe(false)
    actor.send({ type: 'dns.check' })
    expect(dnsProofView.checking(actor.getSnapshot())).toBe(true)
  })

  test('after a proof the form keeps the domains added or removed and not saved, never dropping the proved one', () => {
    const before = { ...org, verified_domains: ['a.test', 'b.test'] }
    const after = { ...before, verified_domains: ['a.test', 'b.test', 'c.test'] }
    // b.test removed and d.test added in the form, c.test proved
    const form = { ...before, verified_domains: ['a.test', 'd.test'] }
    expect(formAfterProof(form, before, after, 'c.test').verified_domains).toEqual([
      'a.test',
      'c.test',
      'd.test',
    ])
    // a removed domain proved again comes back
    expect(formAfterProof(form, before, before, 'b.test').verified_domains).toEqual([
      'a.test',
      'b.test',
      'd.test',
    ])
  })
})
