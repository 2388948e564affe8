import { assign, enqueueActions, fromPromise, setup } from 'xstate'
import { errorMessage } from '../../contract/errors.ts'
import { TRUST_REQUEST_TEXTS, type TrustRequest } from '../../contract/trust.ts'
import { mustBeProvidedIn } from '../actors.ts'

export type TrustDecision = 'approve' | 'reject' | 'revoke' | 'extend'

export interface DecisionInput {
  id: number
  action: TrustDecision
  /** For approve and extend: how many days access lasts from now (the page's default else). */
  days?: number
}

/** The queue's tabs: what waits, what is granted, and everything. */
export type TrustRequestFilter = 'pending' | 'approved' | 'all'

export interface TrustRequestsContext {
  requests: TrustRequest[]
  filter: TrustRequestFilter
  decision: DecisionInput | null
  error: string | null
}

export type TrustRequestsEvents =
  | { type: 'decide'; decision: DecisionInput }
  | { type: 'filter'; filter: TrustRequestFilter }
  | { type: 'retry' }

/** How often the queue is read again while open: a new request shows without a reload. */
export const TRUST_REQUESTS_POLL_MS = 30_000

const mustBeProvided = mustBeProvidedIn('trustRequestsMachine')

/** What the page says once a decision is saved. */
export const DECISION_TEXTS: Record<TrustDecision, string> = {
  approve: TRUST_REQUEST_TEXTS.decidedApprove,
  reject: TRUST_REQUEST_TEXTS.decidedReject,
  revoke: TRUST_REQUEST_TEXTS.decidedRevoke,
  extend: TRUST_REQUEST_TEXTS.decidedExtend,
}

/** The requests a tab shows. */
export const requestsIn = (requests: TrustRequest[], filter: TrustRequestFilter) =>
  filter === 'all' ? requests : requests.filter((request) => request.status === filter)

/**
 * Settings → Trust centre, requests (issue 40, admins): the queue of requests for documents under
 * NDA, read again every 30 seconds while open; approve (for the page's days or as many as given),
 * reject, revoke at once, or extend; one decision at a time, and the queue read again after it.
 */
const errorOf = ({ event }: { event: { error: unknown } }) => event.error

export const trustRequestsMachine = setup({
  types: {
    context: {} as TrustRequestsContext,
    events: {} as TrustRequestsEvents,
    emitted: {} as { type: 'decided'; action: TrustDecision },
    tags: {} as 'loading' | 'busy',
  },
  actors: {
    loadRequests: fromPromise<TrustRequest[], void>(mustBeProvided('loadRequests')),
    decideRequest: fromPromise<TrustRequest, DecisionInput>(mustBeProvided('decideRequest')),
  },
  delays: { poll: TRUST_REQUESTS_POLL_MS },
  actions: {
    setFilter: assign((_, filter: TrustRequestFilter) => ({ filter })),
    setRequests: assign((_, requests: TrustRequest[]) => ({ requests })),
    showError: assign((_, error: unknown) => ({
      error: errorMessage(error, TRUST_REQUEST_TEXTS.requestsFailed),
    })),
    clearError: assign({ error: null }),
    decide: assign((_, decision: DecisionInput) => ({ decision, error: null })),
    /** The decided request as the server now has it, and the page told what was done. */
    decided: enqueueActions(({ context, enqueue }, request: TrustRequest) => {
      enqueue.assign({
        requests: context.requests.map((one) => (one.id === request.id ? request : one)),
        decision: null,
      })
      if (context.decision) enqueue.emit({ type: 'decided', action: context.decision.action })
    }),
    showDecisionError: assign((_, error: unknown) => ({
      decision: null,
      error: errorMessage(error, TRUST_REQUEST_TEXTS.decisionFailed),
    })),
  },
}).createMachine({
  id: 'trustRequests',
  context: { requests: [], filter: 'pending', decision: null, error: null },
  initial: 'loading',
  on: { filter: { actions: { type: 'setFilter', params: ({ event }) => event.filter } } },
  states: {
    loading: {
      description: 'Reads the queue of requests.',
      tags: ['loading'],
      invoke: {
        id: 'loadRequests',
        src: 'loadRequests',
        onDone: {
          target: 'ready',
          actions: { type: 'setRequests', params: ({ event }) => event.output },
        },
        onError: {
          target: 'failed',
          actions: { type: 'showError', params: errorOf },
        },
      },
    },
    failed: {
      description: 'The queue could not be read: says why, and reads it again on Retry.',
      on: { retry: { target: 'loading', actions: 'clearError' } },
    },
    ready: {
      description: 'The queue; read again every 30 seconds.',
      after: { poll: 'refreshing' },
      on: {
        decide: {
          target: 'deciding',
          actions: { type: 'decide', params: ({ event }) => event.decision },
        },
      },
    },
    refreshing: {
      description: 'Reads the queue again in the background; a failure keeps what is shown.',
      invoke: {
        id: 'refreshRequests',
        src: 'loadRequests',
        onDone: {
          target: 'ready',
          actions: { type: 'setRequests', params: ({ event }) => event.output },
        },
        onError: 'ready',
      },
      on: {
        decide: {
          target: 'deciding',
          actions: { type: 'decide', params: ({ event }) => event.decision },
        },
      },
    },
    deciding: {
      description:
        'One decision is saved: approve, reject, revoke or extend; then the queue is read.',
      tags: ['busy'],
      invoke: {
        id: 'decideRequest',
        src: 'decideRequest',
        input: ({ context }) => context.decision as DecisionInput,
        onDone: {
          target: 'loading',
          actions: { type: 'decided', params: ({ event }) => event.output },
        },
        onError: {
          target: 'ready',
          actions: { type: 'showDecisionError', params: errorOf },
        },
      },
    },
  },
})
