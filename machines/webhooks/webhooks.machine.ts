import { assign, fromPromise, setup } from 'xstate'
import type { Webhook, WebhookCreate, WebhookDelivery } from '../../contract/platform.ts'
import { mustBeProvidedIn } from '../actors.ts'
import { editedForm, failureText } from '../shared-actions.ts'
import type { WebhookForm, WebhooksContext, WebhooksEvents } from './webhooks.types.ts'

export type * from './webhooks.types.ts'

/** How often an open log is read again while a delivery is being tried. */
export const WEBHOOK_LOG_POLL_MS = 3_000

const EMPTY_FORM: WebhookForm = { url: '', events: [], kind: 'standard' }
const mustBeProvided = mustBeProvidedIn('webhooksMachine')

/**
 * Settings → Webhooks (issue 41, admins): the organisation's endpoints; one registered with its
 * events and kind (its secret shown once); removed after confirmation; enabled again after a
 * day of failures; its log of deliveries opened, each with its attempts, and replayed.
 */
export const webhooksMachine = setup({
  types: {
    context: {} as WebhooksContext,
    events: {} as WebhooksEvents,
    tags: {} as 'loading' | 'busy',
  },
  actors: {
    loadHooks: fromPromise<Webhook[], void>(mustBeProvided('loadHooks')),
    createHook: fromPromise<Webhook & { secret: string }, WebhookCreate>(
      mustBeProvided('createHook'),
    ),
    removeHook: fromPromise<void, { id: number }>(mustBeProvided('removeHook')),
    enableHook: fromPromise<Webhook, { id: number }>(mustBeProvided('enableHook')),
    loadDeliveries: fromPromise<WebhookDelivery[], { id: number }>(
      mustBeProvided('loadDeliveries'),
    ),
    replayDelivery: fromPromise<void, { id: number; delivery: number }>(
      mustBeProvided('replayDelivery'),
    ),
  },
  delays: { logPoll: WEBHOOK_LOG_POLL_MS },
  guards: {
    sending: ({ context }) => context.deliveries.some((delivery) => delivery.status === 'pending'),
    complete: ({ context }) => context.form.url.trim() !== '' && context.form.events.length > 0,
  },
  actions: {
    fail: assign({ error: ({ event }) => failureText(event, 'That could not be done.') }),
    clearError: assign({ error: null }),
    startForm: assign({ form: EMPTY_FORM, error: null }),
    editForm: assign(({ context }, change: Partial<WebhookForm>) =>
      editedForm(context.form, change),
    ),
    showCreated: assign(({ context }, hook: Webhook & { secret: string }) => ({
      created: hook,
      hooks: [hook, ...context.hooks],
    })),
  },
}).createMachine({
  id: 'webhooks',
  context: {
    hooks: [],
    form: EMPTY_FORM,
    created: null,
    selected: null,
    deliveries: [],
    error: null,
  },
  initial: 'loading',
  states: {
    loading: {
      description: 'The organisation’s webhook endpoints are read.',
      tags: ['loading'],
      invoke: {
        id: 'loadHooks',
        src: 'loadHooks',
        onDone: { target: 'ready', actions: assign({ hooks: ({ event }) => event.output }) },
        onError: { target: 'failed', actions: 'fail' },
      },
    },
    failed: {
      description: 'The endpoints could not be read: a retry.',
      on: { retry: { target: 'loading', actions: 'clearError' } },
    },
    ready: {
      description: 'The endpoints: add one, open its log, enable or remove it.',
      on: {
        start: { target: 'editing', actions: 'startForm' },
        remove: { target: 'confirming', actions: assign({ selected: ({ event }) => event.hook }) },
        enable: { target: 'enabling', actions: assign({ selected: ({ event }) => event.hook }) },
        open: {
          target: 'log',
          actions: assign({ selected: ({ event }) => event.hook, deliveries: [], error: null }),
        },
      },
    },
    editing: {
      description: 'The new endpoint’s address, kind and events.',
      on: {
        edit: { actions: { type: 'editForm', params: ({ event }) => event.change } },
        create: [
          { guard: 'complete', target: 'creating' },
          { actions: assign({ error: 'Give the endpoint’s address and at least one event.' }) },
        ],
        cancel: { target: 'ready', actions: 'clearError' },
      },
    },
    creating: {
      description: 'The endpoint being registered.',
      tags: ['busy'],
      invoke: {
        id: 'createHook',
        src: 'createHook',
        input: ({ context }) => ({ ...context.form, url: context.form.url.trim() }),
        onDone: {
          target: 'created',
          actions: { type: 'showCreated', params: ({ event }) => event.output },
        },
        onError: { target: 'editing', actions: 'fail' },
      },
    },
    created: {
      description: 'The new endpoint’s signing secret, shown this once.',
      on: { done: { target: 'ready', actions: assign({ created: null }) } },
    },
    confirming: {
      description: 'Remove this endpoint? Its deliveries stop.',
      on: {
        confirm: 'removing',
        cancel: { target: 'ready', actions: assign({ selected: null }) },
      },
    },
    removing: {
      description: 'The endpoint is removed.',
      tags: ['busy'],
      invoke: {
        id: 'removeHook',
        src: 'removeHook',
        input: ({ context }) => ({ id: context.selected?.id ?? 0 }),
        onDone: {
          target: 'ready',
          actions: assign(({ context }) => ({
            hooks: context.hooks.filter((hook) => hook.id !== context.selected?.id),
            selected: null,
          })),
        },
        onError: { target: 'ready', actions: ['fail', assign({ selected: null })] },
      },
    },
    enabling: {
      description: 'A disabled endpoint is enabled again.',
      tags: ['busy'],
      invoke: {
        id: 'enableHook',
        src: 'enableHook',
        input: ({ context }) => ({ id: context.selected?.id ?? 0 }),
        onDone: {
          target: 'ready',
          actions: assign(({ context, event }) => ({
            hooks: context.hooks.map((hook) => (hook.id === event.output.id ? event.output : hook)),
            selected: null,
          })),
        },
        onError: { target: 'ready', actions: ['fail', assign({ selected: null })] },
      },
    },
    log: {
      description: 'One endpoint’s deliveries, each with every attempt.',
      initial: 'reading',
      on: { close: { target: 'ready', actions: assign({ selected: null, deliveries: [] }) } },
      states: {
        reading: {
          description: 'The endpoint’s deliveries are read.',
          tags: ['loading'],
          invoke: {
            id: 'loadDeliveries',
            src: 'loadDeliveries',
            input: ({ context }) => ({ id: context.selected?.id ?? 0 }),
            onDone: {
              target: 'shown',
              actions: assign({ deliveries: ({ event }) => event.output }),
            },
            onError: { target: 'shown', actions: 'fail' },
          },
        },
        shown: {
          description: 'Read again every 3 seconds while a delivery is still being tried.',
          after: { logPoll: { guard: 'sending', target: 'reading' } },
          on: {
            replay: 'replaying',
            retry: { target: 'reading', actions: 'clearError' },
          },
        },
        replaying: {
          description: 'A delivery is sent again; then the log is read again.',
          tags: ['busy'],
          entry: 'clearError',
          invoke: {
            id: 'replayDelivery',
            src: 'replayDelivery',
            input: ({ context, event }) => ({
              id: context.selected?.id ?? 0,
              delivery: event.type === 'replay' ? event.delivery.id : 0,
            }),
            onDone: 'reading',
            onError: { target: 'shown', actions: 'fail' },
          },
        },
      },
    },
  },
})
