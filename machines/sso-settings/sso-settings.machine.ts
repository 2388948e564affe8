import { assign, emit, fromPromise, setup } from 'xstate'
import { errorMessage } from '../../contract/errors.ts'
import type { SsoProvider } from '../../contract/paths.ts'
import type { SsoSettings, SsoSettingsUpdate } from '../../contract/sso.ts'
import { mustBeProvidedIn } from '../actors.ts'
import { editedForm, failureText } from '../shared-actions.ts'

/** The form as edited: the secret is typed fresh (empty keeps the stored one). */
export interface SsoForm {
  enabled: boolean
  provider: SsoProvider
  issuer: string
  client_id: string
  client_secret: string
  metadata_url: string
  metadata_xml: string
  domains: string[]
  enforce_sso: boolean
  jit_provisioning: boolean
}

export interface SsoSettingsContext {
  saved: SsoSettings | null
  form: SsoForm
  error: string | null
  /** The last 'Test connection' answer. */
  tested: { ok: boolean; message: string } | null
}

export type SsoSettingsEvents =
  | { type: 'edit'; change: Partial<SsoForm> }
  | { type: 'save' }
  | { type: 'test' }
  | { type: 'reset' }
  | { type: 'retry' }

const mustBeProvided = mustBeProvidedIn('ssoSettingsMachine')

export const formOf = (settings: SsoSettings): SsoForm => ({
  enabled: settings.enabled,
  provider: settings.provider ?? 'microsoft_oidc',
  issuer: settings.issuer ?? '',
  client_id: settings.client_id ?? '',
  client_secret: '',
  metadata_url: settings.metadata_url ?? '',
  metadata_xml: settings.metadata_xml ?? '',
  domains: settings.domains,
  enforce_sso: settings.enforce_sso,
  jit_provisioning: settings.jit_provisioning,
})

/** What the form sends: empty texts as null, the secret only when typed. */
export const updateOf = (form: SsoForm): SsoSettingsUpdate => ({
  enabled: form.enabled,
  provider: form.provider,
  issuer: form.issuer.trim() || null,
  client_id: form.client_id.trim() || null,
  client_secret: form.client_secret || null,
  metadata_url: form.metadata_url.trim() || null,
  metadata_xml: form.metadata_xml.trim() || null,
  domains: form.domains,
  enforce_sso: form.enforce_sso,
  jit_provisioning: form.jit_provisioning,
})

/**
 * Settings → Single sign-on (admins): loads the settings, edits provider, issuer or metadata,
 * client id and secret, domains, whether SSO is required and whether people are created at their
 * first sign-in; 'Test connection' asks the server to read the provider's discovery document;
 * saving says why when refused and tells the page when saved.
 */
export const ssoSettingsMachine = setup({
  types: {
    context: {} as SsoSettingsContext,
    events: {} as SsoSettingsEvents,
    emitted: {} as { type: 'saved' },
    tags: {} as 'loading' | 'busy',
  },
  actors: {
    loadSso: fromPromise<SsoSettings, void>(mustBeProvided('loadSso')),
    saveSso: fromPromise<SsoSettings, SsoSettingsUpdate>(mustBeProvided('saveSso')),
    testSso: fromPromise<{ ok: boolean; message: string }, SsoSettingsUpdate>(
      mustBeProvided('testSso'),
    ),
  },
  actions: {
    setSaved: assign((_, settings: SsoSettings) => ({
      saved: settings,
      form: formOf(settings),
      error: null,
    })),
    fail: assign({ error: ({ event }) => failureText(event, 'The settings could not be saved.') }),
    editForm: assign(({ context }, change: Partial<SsoForm>) => ({
      ...editedForm(context.form, change),
      tested: null,
    })),
    emitSaved: emit({ type: 'saved' } as const),
  },
}).createMachine({
  id: 'ssoSettings',
  context: {
    saved: null,
    form: formOf({
      enabled: false,
      provider: null,
      issuer: null,
      client_id: null,
      has_client_secret: false,
      metadata_url: null,
      metadata_xml: null,
      domains: [],
      enforce_sso: false,
      jit_provisioning: false,
      redirect_uri: null,
      entity_id: '',
    }),
    error: null,
    tested: null,
  },
  initial: 'loading',
  states: {
    loading: {
      description: 'Reads the settings.',
      tags: ['loading'],
      invoke: {
        id: 'loadSso',
        src: 'loadSso',
        onDone: {
          target: 'editing',
          actions: { type: 'setSaved', params: ({ event }) => event.output },
        },
        onError: { target: 'failed', actions: 'fail' },
      },
    },
    failed: { description: 'The settings could not be read: a retry.', on: { retry: 'loading' } },
    editing: {
      description: 'The form; save, test the connection, or go back to what is saved.',
      on: {
        edit: { actions: { type: 'editForm', params: ({ event }) => event.change } },
        reset: {
          actions: assign(({ context }) => ({
            form: context.saved ? formOf(context.saved) : context.form,
            error: null,
            tested: null,
          })),
        },
        save: 'saving',
        test: 'testing',
      },
    },
    saving: {
      description: 'Saves the form; the server checks the domains and that the issuer answers.',
      tags: ['busy'],
      invoke: {
        id: 'saveSso',
        src: 'saveSso',
        input: ({ context }) => updateOf(context.form),
        onDone: {
          target: 'editing',
          actions: [{ type: 'setSaved', params: ({ event }) => event.output }, 'emitSaved'],
        },
        onError: { target: 'editing', actions: 'fail' },
      },
    },
    testing: {
      description: "'Test connection': the provider's discovery document with these settings.",
      tags: ['busy'],
      invoke: {
        id: 'testSso',
        src: 'testSso',
        input: ({ context }) => updateOf(context.form),
        onDone: { target: 'editing', actions: assign({ tested: ({ event }) => event.output }) },
        onError: {
          target: 'editing',
          actions: assign({
            tested: ({ event }) => ({
              ok: false,
              message: errorMessage(event.error, 'The identity provider could not be reached'),
            }),
          }),
        },
      },
    },
  },
})
