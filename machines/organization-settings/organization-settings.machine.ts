import { assign, emit, fromPromise, setup } from 'xstate'
import { errorMessage } from '../../contract/errors.ts'
import type { Organization, OrganizationUpdate } from '../../contract/organization.ts'
import { mustBeProvidedIn } from '../actors.ts'

/** The form: the organisation's settings as edited, domains one per entry. */
export type OrganizationForm = Pick<
  Organization,
  'name' | 'answer_tone' | 'answer_length' | 'verified_domains'
>

export interface OrganizationSettingsContext {
  saved: Organization | null
  form: OrganizationForm
  /** The domain being typed, added to the list on `domain.add`. */
  domain: string
  error: string | null
}

export type OrganizationSettingsEvents =
  | { type: 'edit'; change: Partial<OrganizationForm> }
  | { type: 'domain.type'; value: string }
  | { type: 'domain.add' }
  | { type: 'domain.remove'; domain: string }
  | { type: 'save' }
  | { type: 'reset' }
  | { type: 'retry' }

const mustBeProvided = mustBeProvidedIn('organizationSettingsMachine')

const formOf = (org: Organization): OrganizationForm => ({
  name: org.name,
  answer_tone: org.answer_tone,
  answer_length: org.answer_length,
  verified_domains: org.verified_domains,
})

/**
 * Settings → Organisation (admins): loads the settings, edits name, answer style and verified
 * domains, saves them in one call (the server refuses a domain it cannot verify, and nothing is
 * half-written), says why when refused, and tells the page when saved.
 */
export const organizationSettingsMachine = setup({
  types: {
    context: {} as OrganizationSettingsContext,
    events: {} as OrganizationSettingsEvents,
    emitted: {} as { type: 'saved'; organization: Organization },
  },
  actors: {
    loadOrganization: fromPromise<Organization, void>(mustBeProvided('loadOrganization')),
    saveOrganization: fromPromise<Organization, OrganizationUpdate>(
      mustBeProvided('saveOrganization'),
    ),
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
      const domain = context.domain.trim().toLowerCase()
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
      error: errorMessage(error, 'The settings could not be saved.'),
    })),
    setLoadError: assign((_, error: unknown) => ({
      error: errorMessage(error, 'The settings could not be loaded.'),
    })),
    emitSaved: emit((_, organization: Organization) => ({
      type: 'saved' as const,
      organization,
    })),
  },
}).createMachine({
  id: 'organizationSettings',
  context: {
    saved: null,
    form: { name: '', answer_tone: 'neutral', answer_length: 'standard', verified_domains: [] },
    domain: '',
    error: null,
  },
  initial: 'loading',
  states: {
    loading: {
      tags: 'loading',
      invoke: {
        id: 'loadOrganization',
        src: 'loadOrganization',
        onDone: {
          target: 'editing',
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
    failed: { on: { retry: 'loading' } },
    editing: {
      on: {
        edit: { actions: { type: 'edit', params: ({ event }) => event.change } },
        'domain.type': { actions: { type: 'typeDomain', params: ({ event }) => event.value } },
        'domain.add': { actions: 'addDomain' },
        'domain.remove': { actions: { type: 'removeDomain', params: ({ event }) => event.domain } },
        reset: { actions: 'reset' },
        save: 'saving',
      },
    },
    saving: {
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
})
