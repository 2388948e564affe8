import { and, assign, emit, fromPromise, not, setup, stateIn } from 'xstate'
import { safeParse } from 'zod/v4/core'
import { errorMessage } from '../../contract/errors.ts'
import {
  DEFAULT_REVIEW_CYCLE_DAYS,
  FRESHNESS_TEXTS,
  reviewCycleDaysSchema,
} from '../../contract/freshness.ts'
import {
  type DnsRecord,
  ORGANIZATION_TEXTS,
  type Organization,
  type OrganizationUpdate,
} from '../../contract/organization.ts'
import { mustBeProvidedIn } from '../actors.ts'
import { COPY_NOTICE_MS } from '../constants.ts'
import type { OrganizationForm, OrganizationSettingsSchema } from './organization-settings.types.ts'

const mustBeProvided = mustBeProvidedIn('organizationSettingsMachine')

const formOf = (org: Organization): OrganizationForm => ({
  name: org.name,
  answer_tone: org.answer_tone,
  answer_length: org.answer_length,
  verified_domains: org.verified_domains,
  review_cycle_days: org.review_cycle_days,
  review_digest: org.review_digest,
  export_approved_only: org.export_approved_only,
})

/** Why the review cycle cannot be saved, in the contract's words; null when it can. */
export const cycleProblem = (days: number) => {
  if (Number.isNaN(days)) return FRESHNESS_TEXTS.cycleNotNumber
  const result = safeParse(reviewCycleDaysSchema, days)
  return result.success ? null : (result.error.issues[0]?.message ?? FRESHNESS_TEXTS.cycleDays)
}

const normalDomain = (value: string) => value.trim().toLowerCase()

/**
 * The form after a domain was proved by DNS: the organisation's domains as the server now has
 * them, with the domains added or removed in the form and not saved yet still added or removed
 * (never the proved one: it stays).
 */
export function formAfterProof(
  form: OrganizationForm,
  before: Organization | null,
  after: Organization,
  proved: string,
): OrganizationForm {
  const was = before?.verified_domains ?? []
  const added = form.verified_domains.filter((d) => !was.includes(d))
  const removed = was.filter((d) => d !== proved && !form.verified_domains.includes(d))
  return {
    ...form,
    verified_domains: [
      ...after.verified_domains.filter((d) => !removed.includes(d)),
      ...added.filter((d) => !after.verified_domains.includes(d)),
    ],
  }
}

/**
 * Settings → Organisation (admins): loads the settings, edits name, answer style and verified
 * domains, saves them in one call (the server refuses a domain it cannot verify, and nothing is
 * half-written), says why when refused, and tells the page when saved. Beside the form, a domain
 * is proved by DNS: its TXT record is asked for and shown (its value copied on request), then
 * checked; the server's reason is shown when the check fails, and the organisation it returns
 * when it succeeds. A save and a check never run at once (each changes the domains).
 */
export const organizationSettingsMachine = setup({
  types: {} as OrganizationSettingsSchema,
  actors: {
    loadOrganization: fromPromise<Organization, void>(mustBeProvided('loadOrganization')),
    saveOrganization: fromPromise<Organization, OrganizationUpdate>(
      mustBeProvided('saveOrganization'),
    ),
    loadDnsRecord: fromPromise<DnsRecord, { domain: string }>(mustBeProvided('loadDnsRecord')),
    verifyDns: fromPromise<Organization, { domain: string }>(mustBeProvided('verifyDns')),
    copyText: fromPromise<void, { text: string }>(mustBeProvided('copyText')),
  },
  delays: { copyNotice: COPY_NOTICE_MS },
  guards: {
    hasDnsTarget: ({ context }, domain: string | undefined) =>
      normalDomain(domain ?? context.dnsDomain) !== '',
    hasRecord: ({ context }) => context.record !== null,
    checking: stateIn('#organizationSettings.ready.dns.checking'),
    cycleInvalid: ({ context }) => cycleProblem(context.form.review_cycle_days) !== null,
    saving: stateIn('#organizationSettings.ready.form.saving'),
  },
  actions: {
    setSaved: assign((_, organization: Organization) => ({
      saved: organization,
      form: formOf(organization),
      domain: '',
      error: null,
    })),
    edit: assign(({ context }, change: Partial<OrganizationForm>) => ({
      form: { ...context.form, ...change },
      error: null,
    })),
    typeDomain: assign((_, value: string) => ({ domain: value })),
    addDomain: assign(({ context }) => {
      const domain = normalDomain(context.domain)
      if (!domain || context.form.verified_domains.includes(domain)) return { domain: '' }
      return {
        domain: '',
        form: { ...context.form, verified_domains: [...context.form.verified_domains, domain] },
      }
    }),
    removeDomain: assign(({ context }, domain: string) => ({
      form: {
        ...context.form,
        verified_domains: context.form.verified_domains.filter((d) => d !== domain),
      },
    })),
    reset: assign(({ context }) => ({
      form: context.saved ? formOf(context.saved) : context.form,
      domain: '',
      error: null,
    })),
    setError: assign((_, error: unknown) => ({
      error: errorMessage(error, ORGANIZATION_TEXTS.settingsSaveFailed),
    })),
    setCycleError: assign(({ context }) => ({
      error: cycleProblem(context.form.review_cycle_days),
    })),
    setLoadError: assign((_, error: unknown) => ({
      error: errorMessage(error, ORGANIZATION_TEXTS.settingsLoadFailed),
    })),
    emitSaved: emit((_, organization: Organization) => ({
      type: 'saved' as const,
      organization,
    })),
    typeDnsDomain: assign((_, value: string) => ({ dnsDomain: value })),
    setDnsTarget: assign(({ context }, domain: string | undefined) => {
      const target = normalDomain(domain ?? context.dnsDomain)
      return { dnsDomain: target, dnsTarget: target, record: null, dnsError: null }
    }),
    clearDns: assign({ dnsTarget: null, record: null, dnsError: null }),
    setRecord: assign((_, record: DnsRecord) => ({ record, dnsError: null })),
    setDnsError: assign((_, error: { error: unknown; fallback: string }) => ({
      dnsError: errorMessage(error.error, error.fallback),
    })),
    setProved: assign(({ context }, organization: Organization) => ({
      saved: organization,
      form: formAfterProof(context.form, context.saved, organization, context.dnsTarget ?? ''),
      dnsError: null,
    })),
    emitDnsVerified: emit((_, organization: Organization) => ({
      type: 'dnsVerified' as const,
      organization,
    })),
  },
}).createMachine({
  id: 'organizationSettings',
  context: {
    saved: null,
    form: {
      name: '',
      answer_tone: 'neutral',
      answer_length: 'standard',
      verified_domains: [],
      review_cycle_days: DEFAULT_REVIEW_CYCLE_DAYS,
      review_digest: true,
      export_approved_only: false,
    },
    domain: '',
    error: null,
    dnsDomain: '',
    dnsTarget: null,
    record: null,
    dnsError: null,
  },
  initial: 'loading',
  states: {
    loading: {
      description: "Reads the organisation's settings.",
      tags: 'loading',
      invoke: {
        id: 'loadOrganization',
        src: 'loadOrganization',
        onDone: {
          target: 'ready',
          actions: { type: 'setSaved', params: ({ event }) => event.output },
        },
        onError: {
          target: 'failed',
          actions: {
            type: 'setLoadError',
            params: ({ event }: { event: { error: unknown } }) => event.error,
          },
        },
      },
    },
    failed: {
      description: 'The settings could not be read: says why, and reads them again on Retry.',
      on: { retry: 'loading' },
    },
    ready: {
      description: 'The form beside the proof of a domain by DNS and the copy of its record.',
      type: 'parallel',
      states: {
        form: {
          description: 'Name, answer style, review cycle and verified domains, saved in one call.',
          initial: 'editing',
          states: {
            editing: {
              description:
                'The form as edited; a save waits for no DNS check and refuses a bad review cycle.',
              on: {
                edit: { actions: { type: 'edit', params: ({ event }) => event.change } },
                'domain.type': {
                  actions: { type: 'typeDomain', params: ({ event }) => event.value },
                },
                'domain.add': { actions: 'addDomain' },
                'domain.remove': {
                  actions: { type: 'removeDomain', params: ({ event }) => event.domain },
                },
                reset: { actions: 'reset' },
                save: [
                  { guard: and([not('checking'), 'cycleInvalid']), actions: 'setCycleError' },
                  { guard: not('checking'), target: 'saving' },
                ],
              },
            },
            saving: {
              description: 'The form is saved; a refusal says why in the server’s words.',
              tags: 'busy',
              invoke: {
                id: 'saveOrganization',
                src: 'saveOrganization',
                input: ({ context }) => context.form,
                onDone: {
                  target: 'editing',
                  actions: [
                    { type: 'setSaved', params: ({ event }) => event.output },
                    { type: 'emitSaved', params: ({ event }) => event.output },
                  ],
                },
                onError: {
                  target: 'editing',
                  actions: {
                    type: 'setError',
                    params: ({ event }: { event: { error: unknown } }) => event.error,
                  },
                },
              },
            },
          },
        },
        dns: {
          description: 'A domain proved by DNS: its TXT record asked for, shown, then checked.',
          initial: 'idle',
          on: {
            'dns.type': { actions: { type: 'typeDnsDomain', params: ({ event }) => event.value } },
            'dns.show': {
              guard: { type: 'hasDnsTarget', params: ({ event }) => event.domain },
              target: '.loadingRecord',
              actions: { type: 'setDnsTarget', params: ({ event }) => event.domain },
            },
            'dns.close': { target: '.idle', actions: 'clearDns' },
          },
          states: {
            idle: { description: 'No record is shown.' },
            loadingRecord: {
              description: 'The TXT record of the domain is asked for.',
              tags: 'dnsLoading',
              on: {
                // another domain while one loads: its record is asked for instead
                'dns.show': {
                  guard: { type: 'hasDnsTarget', params: ({ event }) => event.domain },
                  target: 'loadingRecord',
                  reenter: true,
                  actions: { type: 'setDnsTarget', params: ({ event }) => event.domain },
                },
              },
              invoke: {
                id: 'loadDnsRecord',
                src: 'loadDnsRecord',
                input: ({ context }) => ({ domain: context.dnsTarget ?? '' }),
                onDone: {
                  target: 'showing',
                  actions: { type: 'setRecord', params: ({ event }) => event.output },
                },
                onError: {
                  target: 'recordFailed',
                  actions: {
                    type: 'setDnsError',
                    params: ({ event }: { event: { error: unknown } }) => ({
                      error: event.error,
                      fallback: ORGANIZATION_TEXTS.dnsRecordFailed,
                    }),
                  },
                },
              },
            },
            recordFailed: { description: 'The record could not be prepared: says why.' },
            showing: {
              description: 'The record to publish at the domain, and Check (not while saving).',
              on: { 'dns.check': { guard: not('saving'), target: 'checking' } },
            },
            checking: {
              description:
                'The record is checked; another record or closing waits for the check’s end.',
              tags: 'dnsChecking',
              // the check runs to its end: another record or closing waits for it
              on: { 'dns.show': {}, 'dns.close': {} },
              invoke: {
                id: 'verifyDns',
                src: 'verifyDns',
                input: ({ context }) => ({ domain: context.record?.domain ?? '' }),
                onDone: {
                  target: 'verified',
                  actions: [
                    { type: 'setProved', params: ({ event }) => event.output },
                    { type: 'emitDnsVerified', params: ({ event }) => event.output },
                  ],
                },
                onError: {
                  target: 'checkFailed',
                  actions: {
                    type: 'setDnsError',
                    params: ({ event }: { event: { error: unknown } }) => ({
                      error: event.error,
                      fallback: ORGANIZATION_TEXTS.dnsCheckFailed,
                    }),
                  },
                },
              },
            },
            checkFailed: {
              description: 'The check failed: the server’s reason, and Check again.',
              on: { 'dns.check': { guard: not('saving'), target: 'checking' } },
            },
            verified: { description: 'The domain is proved; the form holds it as saved.' },
          },
        },
        copy: {
          description: "Copying the record's value, and saying so for a moment.",
          initial: 'idle',
          on: {
            'dns.copy': { guard: 'hasRecord', target: '.copying' },
            // a copy of another record is not a copy of this one
            'dns.show': { guard: not('checking'), target: '.idle' },
            'dns.close': { guard: not('checking'), target: '.idle' },
          },
          states: {
            idle: { description: 'Nothing copied (or another record shown since).' },
            copying: {
              description: "The record's value goes to the clipboard.",
              invoke: {
                id: 'copyText',
                src: 'copyText',
                input: ({ context }) => ({ text: context.record?.value ?? '' }),
                onDone: 'copied',
                onError: 'copyFailed',
              },
            },
            copied: {
              description: "'Copied' shows for COPY_NOTICE_MS.",
              after: { copyNotice: 'idle' },
            },
            copyFailed: {
              description: 'Copying did not work: select the value and copy it yourself.',
            },
          },
        },
      },
    },
  },
})
