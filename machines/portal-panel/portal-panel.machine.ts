import { assign, fromPromise, setup } from 'xstate'
import { errorMessage } from '../../contract/errors.ts'
import { fillValue, type PortalReadResponse } from '../../contract/portal.ts'
import { mustBeProvidedIn } from '../actors.ts'
import { PORTAL_NOTICE_MS } from '../constants.ts'
import { thrownBy } from '../shared-actions.ts'
import type {
  DraftInput,
  FillItem,
  FillOutcome,
  PageRead,
  PortalPanelContext,
  PortalPanelEvents,
} from './portal-panel.types.ts'

export type * from './portal-panel.types.ts'

/**
 * The extension's portal panel (issue 42): read the page the person is on, draft its questions
 * from Quire, review the drafts and fill them on confirm.
 *
 * checking → signedOut | idle; idle → reading (the reader injected into the tab) → drafting
 * (POST extension/portal/read/) → review. In review a person fills one answer, or every High
 * one (and every approved one) at once; a field that already holds something is never
 * overwritten without its own confirmation, which shows both. What was filled is recorded in
 * the questionnaire's history. "Read this page" again takes the next page of a wizard, and the
 * answers edited or approved in Quire since the last read. An expired session says so and
 * offers to connect again; a failed read or draft offers to retry. The notice of what was just
 * done stays PORTAL_NOTICE_MS.
 */

export class SessionExpiredError extends Error {}

const mustBeProvided = mustBeProvidedIn('portalPanelMachine')

const isExpired = (error: unknown) =>
  error instanceof Error &&
  (error.name === 'SessionExpired' || error instanceof SessionExpiredError)

/** What Fill all High takes: a High draft, or an answer a person approved, not yet filled. */
export function highItems(context: PortalPanelContext): string[] {
  return context.fields
    .filter((field) => {
      const answer = context.answers[field.key]
      if (!answer || context.outcomes[field.key]?.ok) return false
      if (answer.band !== 'high' && answer.status !== 'approved') return false
      return fillValue(field, answer) !== null
    })
    .map((field) => field.key)
}

function itemFor(context: PortalPanelContext, key: string, overwrite: boolean): FillItem | null {
  const field = context.fields.find((one) => one.key === key)
  const answer = context.answers[key]
  if (!field || !answer) return null
  const value = fillValue(field, answer)
  return value === null ? null : { key, answerId: answer.answer_id, value, overwrite }
}

export const portalPanelMachine = setup({
  types: { context: {} as PortalPanelContext, events: {} as PortalPanelEvents },
  actors: {
    /** Quire's address when the extension is signed in, else null. */
    checkSession: fromPromise<string | null, void>(mustBeProvided('checkSession')),
    readPage: fromPromise<PageRead, void>(mustBeProvided('readPage')),
    draft: fromPromise<PortalReadResponse, DraftInput>(mustBeProvided('draft')),
    fill: fromPromise<FillOutcome[], { items: FillItem[] }>(mustBeProvided('fill')),
    record: fromPromise<void, { questionnaireId: number; outcomes: FillOutcome[] }>(
      mustBeProvided('record'),
    ),
    connect: fromPromise<void, void>(mustBeProvided('connect')),
  },
  delays: { notice: PORTAL_NOTICE_MS },
  guards: {
    signedIn: (_, server: string | null) => server !== null,
    expired: ({ event }) => isExpired(thrownBy(event)),
    hasHigh: ({ context }) => highItems(context).length > 0,
    canFill: ({ context, event }) =>
      event.type === 'fill' && itemFor(context, event.key, false) !== null,
    occupiedOne: ({ context }, outcomes: FillOutcome[]) =>
      context.queue.length === 1 && outcomes.length === 1 && outcomes[0]?.occupied === true,
    filledAny: (_, outcomes: FillOutcome[]) => outcomes.some((outcome) => outcome.ok),
  },
  actions: {
    setServer: assign((_, server: string | null) => ({ server })),
    setFields: assign((_, page: PageRead) => ({
      page: { url: page.url, title: page.title },
      fields: page.fields,
      error: null,
    })),
    setDrafts: assign(({ context }, response: PortalReadResponse) => {
      const answers = Object.fromEntries(response.answers.map((answer) => [answer.key, answer]))
      const updated =
        context.questionnaire?.id === response.questionnaire_id
          ? response.answers
              .filter((answer) => {
                const before = context.answers[answer.key]
                return before && before.version !== answer.version
              })
              .map((answer) => answer.key)
          : []
      return {
        questionnaire: {
          id: response.questionnaire_id,
          name: response.name,
          url: response.url,
        },
        answers,
        updated,
        outcomes: {},
        error: null,
        expired: false,
      }
    }),
    queueOne: assign(({ context, event }) => {
      if (event.type !== 'fill') return {}
      const item = itemFor(context, event.key, false)
      return { queue: item ? [item] : [], notice: null }
    }),
    queueHigh: assign(({ context }) => ({
      queue: highItems(context).flatMap((key) => itemFor(context, key, false) ?? []),
      notice: null,
    })),
    queueOverwrite: assign(({ context }) => {
      const key = context.overwrite?.key
      const item = key ? itemFor(context, key, true) : null
      return { queue: item ? [item] : [], overwrite: null }
    }),
    askOverwrite: assign(({ context }, outcomes: FillOutcome[]) => {
      const outcome = outcomes[0] as FillOutcome
      const field = context.fields.find((one) => one.key === outcome.key)
      const item = context.queue[0] as FillItem
      return {
        overwrite: {
          key: outcome.key,
          question: field?.question ?? '',
          current: outcome.current ?? field?.value ?? '',
          next: item.value,
        },
      }
    }),
    setOutcomes: assign(({ context }, outcomes: FillOutcome[]) => {
      const next = { ...context.outcomes }
      for (const outcome of outcomes)
        next[outcome.key] = outcome.ok
          ? { ok: true }
          : { ok: false, reason: outcome.reason, occupied: outcome.occupied }
      const filled = outcomes.filter((outcome) => outcome.ok).length
      const held = outcomes.filter((outcome) => outcome.occupied).length
      const notice =
        `Filled ${filled} ${filled === 1 ? 'answer' : 'answers'}` +
        (held
          ? `; ${held} ${held === 1 ? 'field holds' : 'fields hold'} something already and ${held === 1 ? 'was' : 'were'} left as ${held === 1 ? 'it was' : 'they were'}`
          : '') +
        '.'
      return { outcomes: next, notice }
    }),
    clearOverwrite: assign({ overwrite: null, queue: [] }),
    clearNotice: assign({ notice: null }),
    pageChanged: assign({
      notice: 'The page changed: choose “Read this page again” to draft its questions.',
    }),
    setError: assign(({ event }) => ({
      error: errorMessage(thrownBy(event), 'Something went wrong. Please try again.'),
    })),
    setExpired: assign({ expired: true, error: null }),
    recordFailed: assign(({ context, event }) => ({
      notice:
        `${context.notice ?? ''} Quire could not record it in the history: ${errorMessage(thrownBy(event), 'try again')}`.trim(),
    })),
  },
}).createMachine({
  id: 'portalPanel',
  context: {
    server: null,
    page: null,
    questionnaire: null,
    fields: [],
    answers: {},
    outcomes: {},
    updated: [],
    queue: [],
    overwrite: null,
    notice: null,
    error: null,
    expired: false,
  },
  initial: 'checking',
  states: {
    checking: {
      description: 'Whether the extension is connected to a Quire server, and to which.',
      tags: 'busy',
      invoke: {
        id: 'checkSession',
        src: 'checkSession',
        onDone: [
          {
            guard: { type: 'signedIn', params: ({ event }) => event.output },
            target: 'idle',
            actions: { type: 'setServer', params: ({ event }) => event.output },
          },
          { target: 'signedOut' },
        ],
        onError: { target: 'signedOut' },
      },
    },
    signedOut: {
      description: 'Not connected: the panel offers to connect to Quire.',
      on: { connect: 'connecting', 'session.changed': 'checking' },
    },
    connecting: {
      description: 'The sign-in tab runs; the session it leaves is read again.',
      tags: 'busy',
      invoke: {
        id: 'connect',
        src: 'connect',
        onDone: 'signedOut',
        onError: { target: 'signedOut', actions: 'setError' },
      },
    },
    idle: {
      description: 'Connected: "Read this page" reads the tab the person is on.',
      on: { read: 'reading', 'session.changed': 'checking' },
    },
    reading: {
      description: 'The reader is injected into the tab and lists its question fields.',
      tags: 'busy',
      invoke: {
        id: 'readPage',
        src: 'readPage',
        onDone: {
          target: 'drafting',
          actions: { type: 'setFields', params: ({ event }) => event.output },
        },
        onError: { target: 'failed', actions: 'setError' },
      },
    },
    drafting: {
      description: 'Quire keeps the page as a questionnaire and drafts its open questions.',
      tags: 'busy',
      invoke: {
        id: 'draft',
        src: 'draft',
        input: ({ context }) => ({
          url: context.page?.url ?? '',
          title: context.page?.title ?? '',
          fields: context.fields,
          questionnaireId: context.questionnaire?.id ?? null,
        }),
        onDone: {
          target: 'review',
          actions: { type: 'setDrafts', params: ({ event }) => event.output },
        },
        onError: [
          { guard: 'expired', target: 'expired', actions: 'setExpired' },
          { target: 'failed', actions: 'setError' },
        ],
      },
    },
    failed: {
      description: 'The page could not be read or drafted: the error, and Try again.',
      on: { retry: 'reading', read: 'reading' },
    },
    expired: {
      description: 'The session ended: the panel offers to connect again.',
      on: { connect: 'reconnecting', 'session.changed': 'checking' },
    },
    reconnecting: {
      description: 'The sign-in tab runs again; the panel waits for the new session.',
      tags: 'busy',
      invoke: {
        id: 'connect',
        src: 'connect',
        onDone: 'expired',
        onError: 'expired',
      },
    },
    review: {
      description: 'Each question with its draft, band and sources: fill one, or every High one.',
      initial: 'quiet',
      on: {
        read: 'reading',
        fill: { guard: 'canFill', target: 'filling', actions: 'queueOne' },
        'fill.high': { guard: 'hasHigh', target: 'filling', actions: 'queueHigh' },
        'page.changed': { target: '.notice', reenter: true, actions: 'pageChanged' },
      },
      states: {
        quiet: { description: 'Nothing just happened to tell.' },
        notice: {
          description: 'What was just done (filled, or the page changed), for PORTAL_NOTICE_MS.',
          after: { notice: { target: 'quiet', actions: 'clearNotice' } },
        },
      },
    },
    filling: {
      description: 'The queued answers are written into the page’s fields.',
      tags: 'busy',
      invoke: {
        id: 'fill',
        src: 'fill',
        input: ({ context }) => ({ items: context.queue }),
        onDone: [
          {
            guard: { type: 'occupiedOne', params: ({ event }) => event.output },
            target: 'confirmingOverwrite',
            actions: { type: 'askOverwrite', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'filledAny', params: ({ event }) => event.output },
            target: 'recording',
            actions: { type: 'setOutcomes', params: ({ event }) => event.output },
          },
          {
            target: 'review.notice',
            actions: { type: 'setOutcomes', params: ({ event }) => event.output },
          },
        ],
        onError: {
          target: 'review',
          actions: ['setError', 'clearOverwrite'],
        },
      },
    },
    confirmingOverwrite: {
      description:
        'A field already holds something: both are shown, and nothing is replaced unasked.',
      on: {
        'overwrite.confirm': { target: 'filling', actions: 'queueOverwrite' },
        'overwrite.cancel': { target: 'review', actions: 'clearOverwrite' },
      },
    },
    recording: {
      description: 'What was filled is recorded in the questionnaire’s history.',
      tags: 'busy',
      invoke: {
        id: 'record',
        src: 'record',
        input: ({ context }) => ({
          questionnaireId: context.questionnaire?.id ?? 0,
          outcomes: context.queue.flatMap((item): FillOutcome[] =>
            context.outcomes[item.key]?.ok
              ? [{ key: item.key, answerId: item.answerId, ok: true, overwrote: item.overwrite }]
              : [],
          ),
        }),
        onDone: { target: 'review.notice', actions: 'clearOverwrite' },
        onError: [
          { guard: 'expired', target: 'expired', actions: 'setExpired' },
          { target: 'review.notice', actions: ['recordFailed', 'clearOverwrite'] },
        ],
      },
    },
  },
})
