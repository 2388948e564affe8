import { assign, emit, fromPromise, raise, setup } from 'xstate'
import { errorMessage } from '../../contract/errors.ts'
import type { FileKind, FileStatus, RepositoryFile } from '../../contract/knowledge.ts'
import { mustBeProvidedIn } from '../actors.ts'
import { FILE_STATUS_POLL_MS, LIST_SEARCH_DEBOUNCE_MS } from '../constants.ts'
import { thrownBy } from '../shared-actions.ts'

/**
 * The repository's table: filters, search (debounced), paging, selection, row actions, batch
 * delete behind a confirmation and the tags of one file edited in a dialog. While any listed file
 * is queued or processing, the list refreshes itself quietly so progress bars move and statuses
 * settle.
 */

export interface FileQuery {
  page: number
  page_size: number
  q: string
  kind: FileKind | ''
  status: FileStatus | ''
  tag: string
  /** Issue 38: a product's id, 'none' for the files of all products, or '' for any. */
  product: string
}

export interface FileListContext {
  query: FileQuery
  count: number
  files: RepositoryFile[]
  selected: number[]
  /** Ids waiting for the delete confirmation. */
  pendingDelete: number[]
  error: string | null
  loaded: boolean
  /** The file whose tags are being edited, with the text typed so far. */
  tagging: { id: number; name: string; text: string } | null
}

export type FileAction =
  | { kind: 'reprocess'; id: number }
  | { kind: 'tags'; id: number; tags: string[] }

export type FileListEvents =
  | { type: 'search.change'; q: string }
  | {
      type: 'filter.change'
      filter: Partial<Pick<FileQuery, 'kind' | 'status' | 'tag' | 'product'>>
    }
  | { type: 'page.change'; page: number }
  | { type: 'refresh' }
  | { type: 'select.toggle'; id: number }
  | { type: 'select.all' }
  | { type: 'select.clear' }
  | { type: 'delete.request'; ids: number[] }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' }
  | { type: 'action'; action: FileAction }
  | { type: 'tags.edit'; file: Pick<RepositoryFile, 'id' | 'name' | 'tags'> }
  | { type: 'tags.change'; text: string }
  | { type: 'tags.save' }
  | { type: 'tags.cancel' }

export type FileListEmitted = { type: 'deleted'; count: number } | { type: 'failed'; error: string }

export interface ListOutput {
  count: number
  results: RepositoryFile[]
}

const mustBeProvided = mustBeProvidedIn('fileListMachine')

const errorOf = (error: unknown) => errorMessage(error, 'Something went wrong. Please try again.')

/** The listed page a load answered, as the params of setList (the first load and the quiet one). */
const listOf = ({ event }: { event: { output: ListOutput } }) => event.output

export const DEFAULT_FILE_QUERY: FileQuery = {
  page: 1,
  page_size: 25,
  q: '',
  kind: '',
  status: '',
  tag: '',
  product: '',
}

export const fileListMachine = setup({
  types: {
    context: {} as FileListContext,
    events: {} as FileListEvents,
    emitted: {} as FileListEmitted,
  },
  actors: {
    loadFiles: fromPromise<ListOutput, FileQuery>(mustBeProvided('loadFiles')),
    deleteFiles: fromPromise<number, { ids: number[] }>(mustBeProvided('deleteFiles')),
    runAction: fromPromise<void, FileAction>(mustBeProvided('runAction')),
  },
  delays: { pollInterval: FILE_STATUS_POLL_MS, searchDebounce: LIST_SEARCH_DEBOUNCE_MS },
  guards: {
    isTagging: ({ context }) => context.tagging !== null,
    hasPending: ({ context }) =>
      context.files.some((file) => file.status === 'queued' || file.status === 'processing'),
  },
  actions: {
    setSearch: assign(({ context }, q: string) => ({ query: { ...context.query, q, page: 1 } })),
    setFilter: assign(({ context }, filter: Partial<FileQuery>) => ({
      query: { ...context.query, ...filter, page: 1 },
    })),
    setPage: assign(({ context }, page: number) => ({
      query: { ...context.query, page: Math.max(1, page) },
    })),
    setList: assign(({ context }, output: ListOutput) => ({
      count: output.count,
      files: output.results,
      loaded: true,
      error: null,
      // a selected file that is no longer listed is no longer selected
      selected: context.selected.filter((id) => output.results.some((file) => file.id === id)),
    })),
    setError: assign(({ event }) => ({ error: errorOf(thrownBy(event)) })),
    toggle: assign(({ context }, id: number) => ({
      selected: context.selected.includes(id)
        ? context.selected.filter((s) => s !== id)
        : [...context.selected, id],
    })),
    selectAll: assign(({ context }) => ({ selected: context.files.map((file) => file.id) })),
    clearSelection: assign({ selected: [] }),
    askDelete: assign((_, ids: number[]) => ({ pendingDelete: ids })),
    forgetDelete: assign({ pendingDelete: [] }),
    deleted: assign(({ context }) => ({
      selected: context.selected.filter((id) => !context.pendingDelete.includes(id)),
      pendingDelete: [],
    })),
    editTags: assign((_, file: Pick<RepositoryFile, 'id' | 'name' | 'tags'>) => ({
      tagging: { id: file.id, name: file.name, text: file.tags.join(', ') },
    })),
    changeTags: assign(({ context }, text: string) => ({
      tagging: context.tagging && { ...context.tagging, text },
    })),
    closeTags: assign({ tagging: null }),
    // the typed tags become a row action, which runs when the table is at rest
    saveTags: raise(({ context }) => ({
      type: 'action' as const,
      action: {
        kind: 'tags' as const,
        id: context.tagging?.id ?? 0,
        tags: (context.tagging?.text ?? '')
          .split(',')
          .map((tag) => tag.trim())
          .filter(Boolean),
      },
    })),
    announceDeleted: emit((_, count: number) => ({ type: 'deleted' as const, count })),
    announceFailure: emit(({ event }) => ({
      type: 'failed' as const,
      error: errorOf(thrownBy(event)),
    })),
  },
}).createMachine({
  id: 'fileList',
  context: {
    query: DEFAULT_FILE_QUERY,
    count: 0,
    files: [],
    selected: [],
    pendingDelete: [],
    error: null,
    loaded: false,
    tagging: null,
  },
  initial: 'loading',
  on: {
    'tags.edit': { actions: { type: 'editTags', params: ({ event }) => event.file } },
    'tags.change': { actions: { type: 'changeTags', params: ({ event }) => event.text } },
    'tags.cancel': { actions: 'closeTags' },
    'tags.save': { guard: 'isTagging', actions: ['saveTags', 'closeTags'] },
    'select.toggle': { actions: { type: 'toggle', params: ({ event }) => event.id } },
    'select.all': { actions: 'selectAll' },
    'select.clear': { actions: 'clearSelection' },
  },
  states: {
    loading: {
      description: 'The page of files the search, filters and page ask for is read.',
      tags: 'loading',
      invoke: {
        src: 'loadFiles',
        input: ({ context }) => context.query,
        onDone: { target: 'ready', actions: { type: 'setList', params: listOf } },
        onError: { target: 'failed', actions: 'setError' },
      },
    },
    failed: {
      description: 'The list could not be read: the error, and Try again.',
      on: {
        refresh: 'loading',
        'filter.change': {
          target: 'loading',
          actions: { type: 'setFilter', params: ({ event }) => event.filter },
        },
      },
    },
    ready: {
      description: 'The files; read again quietly every poll while one is queued or processing.',
      after: { pollInterval: { guard: 'hasPending', target: 'refreshing' } },
      on: {
        refresh: 'loading',
        'search.change': {
          target: 'typing',
          actions: { type: 'setSearch', params: ({ event }) => event.q },
        },
        'filter.change': {
          target: 'loading',
          actions: { type: 'setFilter', params: ({ event }) => event.filter },
        },
        'page.change': {
          target: 'loading',
          actions: { type: 'setPage', params: ({ event }) => event.page },
        },
        'delete.request': {
          target: 'confirming',
          actions: { type: 'askDelete', params: ({ event }) => event.ids },
        },
        action: 'acting',
      },
    },
    typing: {
      description: 'The search text changed: wait for a pause in typing before listing.',
      after: { searchDebounce: 'loading' },
      on: {
        'search.change': {
          target: 'typing',
          reenter: true,
          actions: { type: 'setSearch', params: ({ event }) => event.q },
        },
      },
    },
    refreshing: {
      description: 'A quiet refresh while files are being processed; the table stays as it is.',
      invoke: {
        src: 'loadFiles',
        input: ({ context }) => context.query,
        onDone: { target: 'ready', actions: { type: 'setList', params: listOf } },
        onError: 'ready',
      },
      on: {
        'search.change': {
          target: 'typing',
          actions: { type: 'setSearch', params: ({ event }) => event.q },
        },
        'delete.request': {
          target: 'confirming',
          actions: { type: 'askDelete', params: ({ event }) => event.ids },
        },
      },
    },
    confirming: {
      description: 'Delete these files? Nothing is deleted until confirmed.',
      on: {
        'delete.confirm': 'deleting',
        'delete.cancel': { target: 'ready', actions: 'forgetDelete' },
      },
    },
    deleting: {
      description: 'The chosen files are deleted; then the list is read again.',
      tags: 'busy',
      invoke: {
        src: 'deleteFiles',
        input: ({ context }) => ({ ids: context.pendingDelete }),
        onDone: {
          target: 'loading',
          actions: [{ type: 'announceDeleted', params: ({ event }) => event.output }, 'deleted'],
        },
        onError: { target: 'ready', actions: ['forgetDelete', 'announceFailure'] },
      },
    },
    acting: {
      description: 'A row’s action (reprocess, tags) runs; then the list is read again.',
      tags: 'busy',
      invoke: {
        src: 'runAction',
        input: ({ event }) => (event as Extract<FileListEvents, { type: 'action' }>).action,
        onDone: 'loading',
        onError: { target: 'ready', actions: 'announceFailure' },
      },
    },
  },
})
