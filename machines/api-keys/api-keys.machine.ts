import { assign, fromPromise, setup } from 'xstate'
import type { ApiKey, ApiKeyCreate, ApiKeyCreated, ApiKeyScope } from '../../contract/platform.ts'
import { mustBeProvidedIn } from '../actors.ts'
import { editedForm, failureText } from '../shared-actions.ts'
import type { ApiKeyForm, ApiKeysContext, ApiKeysEvents } from './api-keys.types.ts'

export type * from './api-keys.types.ts'

const EMPTY_FORM: ApiKeyForm = { name: '', access: 'read', expires: '' }
const mustBeProvided = mustBeProvidedIn('apiKeysMachine')

/** What the form sends: the scopes its access gives, the expiry at the end of the day chosen. */
export const createOf = (form: ApiKeyForm): ApiKeyCreate => ({
  name: form.name.trim(),
  scopes: (form.access === 'write' ? ['read', 'write'] : ['read']) as ApiKeyScope[],
  expires_at: form.expires ? new Date(`${form.expires}T23:59:59Z`).toISOString() : null,
})

/**
 * Settings → API keys (issue 41, admins): the organisation's keys; a new one named, read or
 * read and write, with an optional expiry, shown once when made (and gone from the page when
 * dismissed); a revocation asked to be confirmed, then effective at once.
 */
export const apiKeysMachine = setup({
  types: {
    context: {} as ApiKeysContext,
    events: {} as ApiKeysEvents,
    tags: {} as 'loading' | 'busy',
  },
  actors: {
    loadKeys: fromPromise<ApiKey[], void>(mustBeProvided('loadKeys')),
    createKey: fromPromise<ApiKeyCreated, ApiKeyCreate>(mustBeProvided('createKey')),
    revokeKey: fromPromise<ApiKey, { id: number }>(mustBeProvided('revokeKey')),
  },
  guards: { named: ({ context }) => context.form.name.trim().length > 0 },
  actions: {
    fail: assign({ error: ({ event }) => failureText(event, 'That could not be done.') }),
    clearError: assign({ error: null }),
    startForm: assign({ form: EMPTY_FORM, error: null }),
    editForm: assign(({ context }, change: Partial<ApiKeyForm>) =>
      editedForm(context.form, change),
    ),
    showCreated: assign(({ context }, key: ApiKeyCreated) => ({
      created: key,
      keys: [key, ...context.keys],
    })),
  },
}).createMachine({
  id: 'apiKeys',
  context: { keys: [], form: EMPTY_FORM, created: null, revoking: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'loadKeys',
        src: 'loadKeys',
        onDone: { target: 'ready', actions: assign({ keys: ({ event }) => event.output }) },
        onError: { target: 'failed', actions: 'fail' },
      },
    },
    failed: {
      description: 'The keys could not be read: a retry.',
      on: { retry: { target: 'loading', actions: 'clearError' } },
    },
    ready: {
      on: {
        start: { target: 'editing', actions: 'startForm' },
        revoke: { target: 'confirming', actions: assign({ revoking: ({ event }) => event.key }) },
      },
    },
    editing: {
      description: 'The new key’s name, access and expiry.',
      on: {
        edit: { actions: { type: 'editForm', params: ({ event }) => event.change } },
        create: [
          { guard: 'named', target: 'creating' },
          { actions: assign({ error: 'Name the key' }) },
        ],
        cancel: { target: 'ready', actions: 'clearError' },
      },
    },
    creating: {
      description: 'The key being made.',
      tags: ['busy'],
      invoke: {
        id: 'createKey',
        src: 'createKey',
        input: ({ context }) => createOf(context.form),
        onDone: {
          target: 'created',
          actions: { type: 'showCreated', params: ({ event }) => event.output },
        },
        onError: { target: 'editing', actions: 'fail' },
      },
    },
    created: {
      description: 'The key, shown this once, to copy.',
      on: { done: { target: 'ready', actions: assign({ created: null }) } },
    },
    confirming: {
      description: 'Revoke this key? Programs that use it stop at once.',
      on: {
        confirm: 'revokingKey',
        cancel: { target: 'ready', actions: assign({ revoking: null }) },
      },
    },
    revokingKey: {
      tags: ['busy'],
      invoke: {
        id: 'revokeKey',
        src: 'revokeKey',
        input: ({ context }) => ({ id: context.revoking?.id ?? 0 }),
        onDone: {
          target: 'ready',
          actions: assign(({ context, event }) => ({
            revoking: null,
            error: null,
            keys: context.keys.map((key) => (key.id === event.output.id ? event.output : key)),
          })),
        },
        onError: { target: 'ready', actions: ['fail', assign({ revoking: null })] },
      },
    },
  },
})
