import { assign, emit, fromPromise, setup } from 'xstate'
import { errorMessage, errorStatus } from '../../contract/errors.ts'
import { TRUST_REQUEST_TEXTS, type TrustRequestCreate } from '../../contract/trust.ts'
import { mustBeProvidedIn } from '../actors.ts'
import { editedForm } from '../shared-actions.ts'

export interface TrustRequestForm {
  name: string
  email: string
  company: string
  reason: string
  nda_accepted: boolean
}

export interface TrustRequestContext {
  slug: string
  /** The NDA version the visitor reads (and accepts). */
  ndaVersion: number
  form: TrustRequestForm
  /** How the request ended: approved at once (an allow-listed domain) or waiting. */
  outcome: 'approved' | 'pending' | null
  error: string | null
}

export type TrustRequestEvents =
  | { type: 'start' }
  | { type: 'edit'; change: Partial<TrustRequestForm> }
  | { type: 'submit' }
  | { type: 'cancel' }
  /** The page was read again: the NDA the visitor now reads. */
  | { type: 'nda'; version: number }

const EMPTY_FORM: TrustRequestForm = {
  name: '',
  email: '',
  company: '',
  reason: '',
  nda_accepted: false,
}

const mustBeProvided = mustBeProvidedIn('trustRequestMachine')

/** What is missing before the request can go, in the words the server would use. */
export function requestProblem(form: TrustRequestForm): string | null {
  if (!form.name.trim()) return 'Enter your name'
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(form.email.trim()))
    return 'Enter your work email as name@company.com'
  if (!form.company.trim()) return 'Enter your company'
  if (!form.nda_accepted) return TRUST_REQUEST_TEXTS.ndaRequired
  return null
}

/**
 * Requesting documents under NDA on the trust centre (issue 40): the visitor opens the form,
 * gives name, work email, company and reason, reads and accepts the NDA, and sends. The answer
 * says whether access was granted at once (the link is emailed) or waits for an admin. When the
 * NDA changed meanwhile, the visitor is asked to read it again (the page tells the machine its
 * new version) and the acceptance is cleared.
 */
export const trustRequestMachine = setup({
  types: {
    context: {} as TrustRequestContext,
    events: {} as TrustRequestEvents,
    input: {} as { slug: string; ndaVersion: number },
    emitted: {} as { type: 'ndaChanged' },
    tags: {} as 'busy',
  },
  actors: {
    sendRequest: fromPromise<
      { status: 'approved' | 'pending' },
      { slug: string; request: TrustRequestCreate }
    >(mustBeProvided('sendRequest')),
  },
  guards: { complete: ({ context }) => requestProblem(context.form) === null },
  actions: {
    editForm: assign(({ context }, change: Partial<TrustRequestForm>) =>
      editedForm(context.form, change),
    ),
  },
}).createMachine({
  id: 'trustRequest',
  context: ({ input }) => ({
    slug: input.slug,
    ndaVersion: input.ndaVersion,
    form: EMPTY_FORM,
    outcome: null,
    error: null,
  }),
  initial: 'closed',
  on: { nda: { actions: assign({ ndaVersion: ({ event }) => event.version }) } },
  states: {
    closed: { on: { start: 'editing' } },
    editing: {
      description: 'The visitor’s name, work email, company, reason and the NDA’s acceptance.',
      on: {
        edit: { actions: { type: 'editForm', params: ({ event }) => event.change } },
        submit: [
          { guard: 'complete', target: 'sending' },
          { actions: assign({ error: ({ context }) => requestProblem(context.form) }) },
        ],
        cancel: { target: 'closed', actions: assign({ error: null }) },
      },
    },
    sending: {
      tags: ['busy'],
      invoke: {
        id: 'sendRequest',
        src: 'sendRequest',
        input: ({ context }) => ({
          slug: context.slug,
          request: {
            name: context.form.name.trim(),
            email: context.form.email.trim(),
            company: context.form.company.trim(),
            reason: context.form.reason.trim(),
            nda_accepted: true,
            nda_version: context.ndaVersion,
          },
        }),
        onDone: {
          target: 'sent',
          actions: assign({ outcome: ({ event }) => event.output.status }),
        },
        onError: [
          {
            // the NDA changed since the page was read: read it again and accept it again
            guard: ({ event }) => errorStatus(event.error) === 409,
            target: 'editing',
            actions: [
              assign(({ context }) => ({
                form: { ...context.form, nda_accepted: false },
                error: TRUST_REQUEST_TEXTS.ndaChanged,
              })),
              emit({ type: 'ndaChanged' } as const),
            ],
          },
          {
            target: 'editing',
            actions: assign({
              error: ({ event }) => errorMessage(event.error, 'The request could not be sent.'),
            }),
          },
        ],
      },
    },
    sent: {
      description: 'Thanked: approved at once (the link is emailed) or waiting for an admin.',
      on: { start: { target: 'editing', actions: assign({ form: EMPTY_FORM, outcome: null }) } },
    },
  },
})
