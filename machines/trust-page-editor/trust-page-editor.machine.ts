import { assign, emit, fromPromise, setup } from 'xstate'
import {
  DEFAULT_TRUST_SETTINGS,
  type TrustSettings,
  type TrustSettingsUpdate,
} from '../../contract/trust.ts'
import { mustBeProvidedIn } from '../actors.ts'
import { editedForm, failureText } from '../shared-actions.ts'
import type {
  TrustForm,
  TrustPageEditorContext,
  TrustPageEditorEvents,
} from './trust-page-editor.types.ts'

export type * from './trust-page-editor.types.ts'

/** How long "Saved" shows after a save. */
export const TRUST_SAVED_NOTICE_MS = 4000

const mustBeProvided = mustBeProvidedIn('trustPageEditorMachine')

/** What the form holds before the page's settings are read. */
export const EMPTY_TRUST_SETTINGS: TrustSettings = { ...DEFAULT_TRUST_SETTINGS, sections: [] }

export const trustFormOf = ({
  nda_version: _version,
  updated_at: _at,
  ...form
}: TrustSettings): TrustForm => form

/** What a save sends: the form with empty texts as nothing and an unnamed page unaddressed. */
export const trustUpdateOf = (form: TrustForm): TrustSettingsUpdate => ({
  published: form.published,
  ...(form.slug?.trim() ? { slug: form.slug.trim() } : {}),
  sections: form.sections,
  overview: form.overview,
  contact_email: form.contact_email?.trim() || null,
  certifications: form.certifications.map((item) => ({
    name: item.name,
    date: item.date || null,
    file_id: item.file_id ?? null,
  })),
  subprocessors: form.subprocessors,
  updates: form.updates,
  nda_text: form.nda_text,
  auto_approve_domains: form.auto_approve_domains,
  grant_days: form.grant_days,
})

/** Whether the form differs from what is saved. */
export const trustFormChanged = (context: TrustPageEditorContext) =>
  context.saved !== null &&
  JSON.stringify(trustFormOf(context.saved)) !== JSON.stringify(context.form)

/**
 * Settings → Trust centre, the page (issue 40, admins): reads the page's settings, edits its
 * address, sections and their order, overview, certifications, sub-processors, updates, contact,
 * the NDA and the approval rules; shows a preview of the page as visitors will read it; saves, or
 * publishes and withdraws, saying why the server refused; "Saved" shows for a few seconds.
 */
export const trustPageEditorMachine = setup({
  types: {
    context: {} as TrustPageEditorContext,
    events: {} as TrustPageEditorEvents,
    emitted: {} as { type: 'saved'; settings: TrustSettings },
    tags: {} as 'loading' | 'busy' | 'preview',
  },
  actors: {
    loadTrust: fromPromise<TrustSettings, void>(mustBeProvided('loadTrust')),
    saveTrust: fromPromise<TrustSettings, TrustSettingsUpdate>(mustBeProvided('saveTrust')),
  },
  delays: { savedNotice: TRUST_SAVED_NOTICE_MS },
  actions: {
    setSaved: assign((_, settings: TrustSettings) => ({
      saved: settings,
      form: trustFormOf(settings),
      error: null,
    })),
    editForm: assign(({ context }, change: Partial<TrustForm>) => editedForm(context.form, change)),
    fail: assign({ error: ({ event }) => failureText(event, 'The page could not be saved.') }),
    setPublished: assign(({ context, event }) =>
      event.type === 'publish' ? { form: { ...context.form, published: event.published } } : {},
    ),
    emitSaved: emit((_, settings: TrustSettings) => ({ type: 'saved' as const, settings })),
  },
}).createMachine({
  id: 'trustPageEditor',
  context: { saved: null, form: trustFormOf(EMPTY_TRUST_SETTINGS), error: null },
  initial: 'loading',
  states: {
    loading: {
      description: 'Reads the page’s settings.',
      tags: ['loading'],
      invoke: {
        id: 'loadTrust',
        src: 'loadTrust',
        onDone: {
          target: 'editing',
          actions: { type: 'setSaved', params: ({ event }) => event.output },
        },
        onError: { target: 'failed', actions: 'fail' },
      },
    },
    failed: {
      description: 'The page’s settings could not be read: a retry.',
      on: { retry: 'loading' },
    },
    editing: {
      description: 'The form: edit, go back to what is saved, preview, save or publish.',
      on: {
        edit: { actions: { type: 'editForm', params: ({ event }) => event.change } },
        reset: {
          actions: assign(({ context }) => ({
            form: context.saved ? trustFormOf(context.saved) : context.form,
            error: null,
          })),
        },
        preview: 'previewing',
        save: 'saving',
        publish: { target: 'saving', actions: 'setPublished' },
      },
    },
    previewing: {
      description: 'The page as a visitor reads it, from the form as edited (nothing saved yet).',
      tags: ['preview'],
      on: {
        back: 'editing',
        save: 'saving',
        publish: { target: 'saving', actions: 'setPublished' },
      },
    },
    saving: {
      description: 'Saves the form; the server checks the address and every field.',
      tags: ['busy'],
      invoke: {
        id: 'saveTrust',
        src: 'saveTrust',
        input: ({ context }) => trustUpdateOf(context.form),
        onDone: {
          target: 'saved',
          actions: [
            { type: 'setSaved', params: ({ event }) => event.output },
            { type: 'emitSaved', params: ({ event }) => event.output },
          ],
        },
        onError: {
          target: 'editing',
          actions: [
            'fail',
            // a refused publication leaves the page as it was
            assign(({ context }) => ({
              form: { ...context.form, published: context.saved?.published ?? false },
            })),
          ],
        },
      },
    },
    saved: {
      description: '"Saved" shows a moment; editing goes on meanwhile.',
      after: { savedNotice: 'editing' },
      on: {
        edit: {
          target: 'editing',
          actions: { type: 'editForm', params: ({ event }) => event.change },
        },
        preview: 'previewing',
        save: 'saving',
        publish: { target: 'saving', actions: 'setPublished' },
      },
    },
  },
})
