import { assign, fromPromise, setup } from 'xstate'
import {
  COLLABORATION_TEXTS,
  type DeliveryChannel,
  type NotificationKind,
  type NotificationPreferences,
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

/** One kind of notification and how it is to be delivered. */
interface Choice {
  kind: NotificationKind
  channel: DeliveryChannel
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
    choose: assign(({ context }, { kind, channel }: Choice) =>
      context.preferences
        ? { preferences: { ...context.preferences, [kind]: channel }, error: null }
        : {},
    ),
  },
  guards: {
    changes: ({ context }, { kind, channel }: Choice) => context.preferences?.[kind] !== channel,
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
            error: errorMessage(event.error, COLLABORATION_TEXTS.preferencesLoadFailed),
          })),
        },
      },
    },
    failed: { on: { retry: 'loading' } },
    ready: {
      initial: 'idle',
      on: {
        choose: {
          guard: { type: 'changes', params: ({ event }) => event },
          target: '.saving',
          actions: { type: 'choose', params: ({ event }) => event },
          reenter: true,
        },
      },
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
                error: errorMessage(event.error, COLLABORATION_TEXTS.preferenceSaveFailed),
              })),
            },
          },
        },
      },
    },
  },
})
