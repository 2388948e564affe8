import { assertEvent, assign, emit, fromPromise, setup } from 'xstate'
import { ORGANIZATION_TEXTS } from '../../contract/organization.ts'
import { mustBeProvidedIn } from '../actors.ts'
import { failureText } from '../shared-actions.ts'

const mustBeProvided = mustBeProvidedIn('organizationLogoMachine')

export type OrganizationLogoEvents =
  /** Admins: a chosen image replaces the logo. */
  { type: 'upload'; file: File } | { type: 'remove' }

/**
 * The organisation's logo (Settings → Organisation): loaded as an image address (null: none);
 * an admin uploads a PNG, JPEG or WebP image or removes it, and the logo is read again. A refusal
 * ('The logo must be a PNG, JPEG or WebP image') stays shown until the next try.
 */
export const organizationLogoMachine = setup({
  types: {
    context: {} as { url: string | null; error: string | null },
    events: {} as OrganizationLogoEvents,
    tags: {} as 'loading' | 'busy',
    /** `changed`: the logo was replaced or removed (the page refreshes its audit log). */
    emitted: {} as { type: 'changed' },
  },
  actors: {
    loadLogo: fromPromise<string | null, void>(mustBeProvided('loadLogo')),
    uploadLogo: fromPromise<void, { file: File }>(mustBeProvided('uploadLogo')),
    removeLogo: fromPromise<void, void>(mustBeProvided('removeLogo')),
  },
  actions: {
    changed: emit({ type: 'changed' } as const),
    /** A failed upload or removal, worded from its error event (read by name, no params). */
    fail: assign(({ event }) => ({
      error: failureText(event, ORGANIZATION_TEXTS.logoChangeFailed),
    })),
  },
}).createMachine({
  id: 'organizationLogo',
  context: { url: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      description: 'Reads the logo (none is no error).',
      tags: ['loading'],
      invoke: {
        id: 'loadLogo',
        src: 'loadLogo',
        onDone: { target: 'idle', actions: assign({ url: ({ event }) => event.output }) },
        onError: { target: 'idle', actions: assign({ url: null }) },
      },
    },
    idle: {
      description: 'The logo, or none; an admin may upload or remove.',
      on: {
        upload: { target: 'uploading', actions: assign({ error: null }) },
        remove: { target: 'removing', actions: assign({ error: null }) },
      },
    },
    uploading: {
      description: 'Sends the chosen image.',
      tags: ['busy'],
      invoke: {
        id: 'uploadLogo',
        src: 'uploadLogo',
        input: ({ event }) => {
          assertEvent(event, 'upload')
          return { file: event.file }
        },
        onDone: { target: 'loading', actions: 'changed' },
        onError: { target: 'idle', actions: 'fail' },
      },
    },
    removing: {
      description: 'Removes the logo.',
      tags: ['busy'],
      invoke: {
        id: 'removeLogo',
        src: 'removeLogo',
        onDone: { target: 'loading', actions: 'changed' },
        onError: { target: 'idle', actions: 'fail' },
      },
    },
  },
})
