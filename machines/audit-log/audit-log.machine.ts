import { assign, fromPromise, setup } from 'xstate'
import { errorMessage } from '../../contract/errors.ts'
import { type AuditEvent, ORGANIZATION_TEXTS } from '../../contract/organization.ts'
import { mustBeProvidedIn } from '../actors.ts'

export interface AuditQuery {
  page: number
  page_size: number
  /** An action prefix ('user.', 'organization.', 'authorization.'), or '' for all. */
  action: string
}

export interface AuditLogContext {
  query: AuditQuery
  count: number
  results: AuditEvent[]
  error: string | null
}

export type AuditLogEvents =
  | { type: 'action.change'; action: string }
  | { type: 'page.change'; page: number }
  | { type: 'refresh' }
  | { type: 'download' }

const mustBeProvided = mustBeProvidedIn('auditLogMachine')

/**
 * Settings → Audit log (admins): the organisation's administrative and approval actions, newest
 * first, by kind of action, a page at a time; the filtered log downloads as CSV.
 */
export const auditLogMachine = setup({
  types: { context: {} as AuditLogContext, events: {} as AuditLogEvents },
  actors: {
    loadAudit: fromPromise<{ count: number; results: AuditEvent[] }, AuditQuery>(
      mustBeProvided('loadAudit'),
    ),
    downloadAudit: fromPromise<void, AuditQuery>(mustBeProvided('downloadAudit')),
  },
  actions: {
    setAction: assign(({ context }, action: string) => ({
      query: { ...context.query, action, page: 1 },
    })),
    setPage: assign(({ context }, page: number) => ({
      query: { ...context.query, page: Math.max(1, page) },
    })),
    setEvents: assign((_, output: { count: number; results: AuditEvent[] }) => ({
      count: output.count,
      results: output.results,
      error: null,
    })),
    setError: assign((_, error: unknown) => ({
      error: errorMessage(error, ORGANIZATION_TEXTS.auditLoadFailed),
    })),
    setDownloadError: assign((_, error: unknown) => ({
      error: errorMessage(error, ORGANIZATION_TEXTS.auditDownloadFailed),
    })),
  },
}).createMachine({
  id: 'auditLog',
  context: { query: { page: 1, page_size: 25, action: '' }, count: 0, results: [], error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: 'loading',
      invoke: {
        id: 'loadAudit',
        src: 'loadAudit',
        input: ({ context }) => context.query,
        onDone: {
          target: 'ready',
          actions: { type: 'setEvents', params: ({ event }) => event.output },
        },
        onError: {
          target: 'failed',
          actions: {
            type: 'setError',
            params: ({ event }: { event: { error: unknown } }) => event.error,
          },
        },
      },
    },
    ready: {
      on: {
        'action.change': {
          target: 'loading',
          actions: { type: 'setAction', params: ({ event }) => event.action },
        },
        'page.change': {
          target: 'loading',
          actions: { type: 'setPage', params: ({ event }) => event.page },
        },
        refresh: 'loading',
        download: 'downloading',
      },
    },
    downloading: {
      tags: 'busy',
      invoke: {
        id: 'downloadAudit',
        src: 'downloadAudit',
        input: ({ context }) => context.query,
        onDone: 'ready',
        onError: {
          target: 'ready',
          actions: {
            type: 'setDownloadError',
            params: ({ event }: { event: { error: unknown } }) => event.error,
          },
        },
      },
    },
    failed: { on: { refresh: 'loading' } },
  },
})
