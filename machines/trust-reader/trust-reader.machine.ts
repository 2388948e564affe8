import { assign, emit, fromPromise, setup } from 'xstate'
import { errorMessage } from '../../contract/errors.ts'
import { TRUST_REQUEST_TEXTS, type TrustReader } from '../../contract/trust.ts'
import { mustBeProvidedIn } from '../actors.ts'
import { outputOf } from '../shared-actions.ts'

type Reader = NonNullable<TrustReader['reader']>

export interface TrustReaderContext {
  slug: string
  /** The emailed link's one-time token, until it is used. */
  access: string | null
  reader: Reader | null
  error: string | null
}

export type TrustReaderEvents = { type: 'open' } | { type: 'dismiss' }

/** How often a reader's session is checked with the server: a revocation shows within it. */
export const TRUST_READER_CHECK_MS = 5 * 60_000

/** The wait before the next check: the check interval, or until the session ends if sooner. */
export const readerCheckDelay = (reader: Reader | null, now = Date.now()) =>
  reader
    ? Math.max(1_000, Math.min(TRUST_READER_CHECK_MS, Date.parse(reader.expires_at) - now + 1_000))
    : TRUST_READER_CHECK_MS

const mustBeProvided = mustBeProvidedIn('trustReaderMachine')

/**
 * What the server said of this browser's session, read from the load's done event by name: the
 * first check and each recheck take it alike, in one line each.
 */
const readOf = (event: object) => outputOf(event) as TrustReader

/**
 * The reader session of a visitor under NDA (issue 40). The emailed link opens the page with a
 * one-time token: the visitor's own click ("Open the documents") exchanges it for a session kept
 * in an HttpOnly cookie. A session is checked with the server every 5 minutes and when it is due
 * to end: once it has ended or was revoked, the page says so and documents under NDA close.
 */
export const trustReaderMachine = setup({
  types: {
    context: {} as TrustReaderContext,
    events: {} as TrustReaderEvents,
    input: {} as { slug: string; access?: string | null },
    emitted: {} as { type: 'opened' },
    tags: {} as 'busy',
  },
  actors: {
    loadReader: fromPromise<TrustReader, { slug: string }>(mustBeProvided('loadReader')),
    openSession: fromPromise<Reader, { slug: string; token: string }>(
      mustBeProvided('openSession'),
    ),
  },
  delays: { untilCheck: ({ context }) => readerCheckDelay(context.reader) },
  guards: {
    hasLink: ({ context }) => context.access !== null,
    /** The server names the reader: the session stands. */
    isReader: ({ event }) => Boolean(readOf(event).reader),
  },
  actions: {
    setReader: assign(({ event }) => ({ reader: readOf(event).reader ?? null })),
  },
}).createMachine({
  id: 'trustReader',
  context: ({ input }) => ({
    slug: input.slug,
    access: input.access?.trim() || null,
    reader: null,
    error: null,
  }),
  initial: 'starting',
  states: {
    starting: {
      description:
        'Settles at once: an emailed link waits for its click, else the session is read.',
      always: [{ guard: 'hasLink', target: 'linkToOpen' }, { target: 'checking' }],
    },
    checking: {
      description: 'Asks the server whether this browser holds a reader session.',
      invoke: {
        id: 'loadReader',
        src: 'loadReader',
        input: ({ context }) => ({ slug: context.slug }),
        onDone: [
          { guard: 'isReader', target: 'reader', actions: 'setReader' },
          { target: 'visitor' },
        ],
        onError: 'visitor',
      },
    },
    visitor: { description: 'No session: documents under NDA are on request.' },
    linkToOpen: {
      description: 'The emailed link: nothing happens until the visitor clicks.',
      on: { open: 'opening' },
    },
    opening: {
      description: "'Open the documents': the link's token is exchanged for a reader session.",
      tags: ['busy'],
      invoke: {
        id: 'openSession',
        src: 'openSession',
        input: ({ context }) => ({ slug: context.slug, token: context.access ?? '' }),
        onDone: {
          target: 'reader',
          actions: [
            assign({ reader: ({ event }) => event.output, access: null, error: null }),
            emit({ type: 'opened' } as const),
          ],
        },
        onError: {
          target: 'linkFailed',
          actions: assign({
            access: null,
            error: ({ event }) => errorMessage(event.error, TRUST_REQUEST_TEXTS.linkInvalid),
          }),
        },
      },
    },
    linkFailed: {
      description: 'Invalid or used link: the reason, and the page as any visitor reads it.',
      on: { dismiss: { target: 'checking', actions: assign({ error: null }) } },
    },
    reader: {
      description: 'Documents under NDA download marked with the reader’s email.',
      after: { untilCheck: 'rechecking' },
    },
    rechecking: {
      description: 'Is the session still valid (not ended, not revoked)?',
      invoke: {
        id: 'recheckReader',
        src: 'loadReader',
        input: ({ context }) => ({ slug: context.slug }),
        onDone: [
          { guard: 'isReader', target: 'reader', actions: 'setReader' },
          {
            target: 'ended',
            actions: assign({ reader: null, error: TRUST_REQUEST_TEXTS.sessionEnded }),
          },
        ],
        // offline for a moment: the session stands until the next check
        onError: 'reader',
      },
    },
    ended: {
      description: '"Your access has ended. Ask for access again."',
      on: { dismiss: { target: 'visitor', actions: assign({ error: null }) } },
    },
  },
})
