import { assign, fromPromise, setup } from 'xstate'
import type {
  DeliveryChannel,
  NotificationKind,
  NotificationPreferences,
} from '../../contract/collaboration.ts'
import { errorMessage } from '../../contract/errors.ts'
import { mustBeProvidedIn } from '../actors.ts'

/**
 * How the signed-in person is told of each kind of notification (issue 29): in the app, by email,
 * both, or not at all. Read when Settings opens; each choice shows at once and is saved at once
 * (the whole set, so the last choice wins); a refused save puts back what was saved.
 */

export type Channels = NotificationPreferences['preferences']

export interface NotificationPreferencesContext {
  /** What is shown: the saved choices and any not yet saved. */
  preferences: Channels | null
  /** What the server holds. */
  saved: Channels | null
  error: string | null
}

export type NotificationPreferencesEvents =
  | { type: 'choose'; kind: NotificationKind; channel: DeliveryChannel }
  | { type: 'retry' }

const mustBeProvided = mustBeProvidedIn('notificationPreferencesMachine')

export const notificationPreferencesMachine = setup({
  types: {
    context: {} as NotificationPreferencesContext,
    events: {} as NotificationPreferencesEvents,
  },
  actors: {
    loadPreferences: fromPromise<Channels, void>(mustBeProvided('loadPreferences')),
    savePreferences: fromPromise<Channels, Channels>(mustBeProvided('savePreferences')),
  },
  actions: {
    choose: assign(({ context, event }) => {
      const { kind, channel } = event as Extract<NotificationPreferencesEvents, { type: 'choose' }>
      return context.preferences
        ? { preferences: { ...context.preferences, [kind]: channel }, error: null }
        : {}
    }),
  },
  guards: {
    changes: ({ context, event }) =>
      event.type === 'choose' && context.preferences?.[event.kind] !== event.channel,
  },
}).createMachine({
  id: 'notificationPreferences',
  context: { preferences: null, saved: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: 'loading',
      invoke: {
        src: 'loadPreferences',
        onDone: {
          target: 'ready',
          actions: assign(({ event }) => ({
            preferences: event.output,
            saved: event.output,
            error: null,
          })),
        },
        onError: {
          target: 'failed',
          actions: assign(({ event }) => ({
            error: errorMessage(event.error, 'Your notification settings could not be read.'),
          })),
        },
      },
    },
    failed: { on: { retry: 'loading' } },
    ready: {
      initial: 'idle',
      on: { choose: { guard: 'changes', target: '.saving', actions: 'choose', reenter: true } },
      states: {
        idle: {},
        saved: {},
        saving: {
          tags: 'saving',
          invoke: {
            src: 'savePreferences',
            input: ({ context }) => context.preferences as Channels,
            onDone: {
              target: 'saved',
              actions: assign(({ event }) => ({ saved: event.output, preferences: event.output })),
            },
            onError: {
              target: 'idle',
              actions: assign(({ context, event }) => ({
                preferences: context.saved,
                error: errorMessage(
                  event.error,
                  'Your choice could not be saved. Please try again.',
                ),
              })),
            },
          },
        },
      },
    },
  },
})
