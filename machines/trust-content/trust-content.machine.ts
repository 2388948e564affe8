import { assign, fromPromise, setup } from 'xstate'
import { errorMessage } from '../../contract/errors.ts'
import { TRUST_TEXTS, type TrustItems, type TrustVisibility } from '../../contract/trust.ts'
import { mustBeProvidedIn } from '../actors.ts'

/** One change of what is on the page: a repository file or an approved Q&A item. */
export interface VisibilityChange {
  kind: 'file' | 'qa'
  id: number
  visibility: TrustVisibility
}

export interface TrustContentContext {
  items: TrustItems
  /** The change on its way, shown on its row. */
  pending: VisibilityChange | null
  error: string | null
}

export type TrustContentEvents =
  | { type: 'set'; change: VisibilityChange }
  | { type: 'retry' }
  | { type: 'reload' }

const mustBeProvided = mustBeProvidedIn('trustContentMachine')

/** The items with one change applied. */
export function applyVisibility(items: TrustItems, change: VisibilityChange): TrustItems {
  if (change.kind === 'file')
    return {
      ...items,
      files: items.files.map((file) =>
        file.id === change.id ? { ...file, visibility: change.visibility } : file,
      ),
    }
  const visibility = change.visibility === 'nda' ? 'public' : change.visibility
  return {
    ...items,
    qa: items.qa.map((item) => (item.id === change.id ? { ...item, visibility } : item)),
  }
}

/**
 * Settings → Trust centre, what is public (issue 40; admins and approvers): the repository's
 * files (private, public or under NDA) and the approved Q&A items (private or public). One change
 * at a time, shown at once and kept when the server agrees, undone with the reason when not.
 */
export const trustContentMachine = setup({
  types: {
    context: {} as TrustContentContext,
    events: {} as TrustContentEvents,
    tags: {} as 'loading',
  },
  actors: {
    loadItems: fromPromise<TrustItems, void>(mustBeProvided('loadItems')),
    setVisibility: fromPromise<void, VisibilityChange>(mustBeProvided('setVisibility')),
  },
}).createMachine({
  id: 'trustContent',
  context: { items: { files: [], qa: [] }, pending: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      description: 'Reads the files and items with their visibility.',
      tags: ['loading'],
      invoke: {
        id: 'loadItems',
        src: 'loadItems',
        onDone: { target: 'ready', actions: assign({ items: ({ event }) => event.output }) },
        onError: {
          target: 'failed',
          actions: assign({
            error: ({ event }) => errorMessage(event.error, TRUST_TEXTS.contentFailed),
          }),
        },
      },
    },
    failed: { on: { retry: { target: 'loading', actions: assign({ error: null }) } } },
    ready: {
      on: {
        set: {
          target: 'changing',
          actions: assign(({ context, event }) => ({
            pending: event.change,
            error: null,
            items: applyVisibility(context.items, event.change),
          })),
        },
        reload: 'loading',
      },
    },
    changing: {
      description: 'The change is saved; the row already shows it.',
      invoke: {
        id: 'setVisibility',
        src: 'setVisibility',
        input: ({ context }) => context.pending as VisibilityChange,
        onDone: { target: 'ready', actions: assign({ pending: null }) },
        onError: {
          // the server refused: what it holds is read again, the reason said
          target: 'loading',
          actions: assign({
            pending: null,
            error: ({ event }) => errorMessage(event.error, TRUST_TEXTS.contentSaveFailed),
          }),
        },
      },
    },
  },
})
