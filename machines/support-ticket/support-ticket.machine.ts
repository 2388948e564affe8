import { assign, emit, fromPromise, setup } from 'xstate'
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_MAX_COUNT,
  ATTACHMENTS_MAX_TOTAL_BYTES,
  isAcceptedAttachmentName,
  SUPPORT_TEXTS,
  TICKET_PRIORITIES,
  TICKET_TYPES,
  type TicketType,
} from '../../contract/support.ts'
import { mustBeProvidedIn } from '../actors.ts'
import { TICKET_PRIORITY_DEFAULT } from '../constants.ts'
import type {
  LoadDraftOutput,
  SubmitTicketInput,
  SupportTicketContext,
  SupportTicketSchema,
  TicketAttachment,
  TicketDraft,
} from './support-ticket.types.ts'

const mustBeProvided = mustBeProvidedIn('supportTicketMachine')

/** Too many files, in the contract's words. */
export const ATTACHMENT_COUNT_TEXT = SUPPORT_TEXTS.attachmentCount

export const EMPTY_DRAFT: TicketDraft = {
  type: TICKET_TYPES[0],
  summary: '',
  description: '',
  steps: '',
  priority: TICKET_PRIORITIES.find((priority) => priority === TICKET_PRIORITY_DEFAULT) ?? 'Medium',
}

const NO_ERRORS: SupportTicketContext['errors'] = { summary: null, description: null }

function checkForm(values: TicketDraft): SupportTicketContext['errors'] {
  return {
    summary: values.summary.trim() ? null : SUPPORT_TEXTS.summaryRequired,
    description: values.description.trim() ? null : SUPPORT_TEXTS.descriptionRequired,
  }
}

/** Why a file cannot be attached beside those already attached, or null when it can. */
export function attachmentError(
  attachment: TicketAttachment,
  attached: readonly { size: number }[],
): string | null {
  if (attached.length >= ATTACHMENT_MAX_COUNT) return ATTACHMENT_COUNT_TEXT
  if (!isAcceptedAttachmentName(attachment.filename)) return SUPPORT_TEXTS.attachmentType
  if (attachment.size > ATTACHMENT_MAX_BYTES) return SUPPORT_TEXTS.attachmentTooLarge
  const total = attached.reduce((sum, file) => sum + file.size, attachment.size)
  if (total > ATTACHMENTS_MAX_TOTAL_BYTES) return SUPPORT_TEXTS.attachmentsTooLarge
  return null
}

const ticketPayload = (context: SupportTicketContext): SubmitTicketInput => ({
  type: context.values.type,
  summary: context.values.summary.trim(),
  description: context.values.description.trim(),
  steps: context.values.steps,
  priority: context.values.priority,
  attachments: context.attachments.map(({ filename, data }) => ({ filename, data })),
  custom_fields: [
    { id: 'type', value: context.values.type },
    { id: 'source', value: 'Web App' },
  ],
})

/**
 * The support ticket dialog (spec sections 2, 3, 4, 5 and 7): any signed-in user sends a bug,
 * feature request, feedback, question or idea. The draft is kept in localStorage as the user types
 * (the app does the writing on `draft.save` / `draft.clear`), restored on reopening, forgotten on
 * success or 'Clear form' and kept on failure.
 */
export const supportTicketMachine = setup({
  types: {} as SupportTicketSchema,
  actors: {
    loadDraft: fromPromise<LoadDraftOutput>(mustBeProvided('loadDraft')),
    submitTicket: fromPromise<void, SubmitTicketInput>(mustBeProvided('submitTicket')),
  },
  actions: {
    requestType: assign((_, ticketType: TicketType | null) => ({ requestedType: ticketType })),
    restoreDraft: assign(({ context }, draft: LoadDraftOutput) => ({
      values: {
        ...(draft ?? context.values),
        type: context.requestedType ?? draft?.type ?? context.values.type,
      },
      errors: NO_ERRORS,
      failure: null,
    })),
    applyRequestedType: assign(({ context }) => ({
      values: { ...context.values, type: context.requestedType ?? context.values.type },
      errors: NO_ERRORS,
      failure: null,
    })),
    setValues: assign(({ context }, change: Partial<TicketDraft>) => ({
      values: { ...context.values, ...change },
      // a field's error clears as soon as it is typed in
      errors: {
        summary: 'summary' in change ? null : context.errors.summary,
        description: 'description' in change ? null : context.errors.description,
      },
    })),
    saveDraft: emit(({ context }) => ({ type: 'draft.save' as const, draft: context.values })),
    clearDraft: emit({ type: 'draft.clear' as const }),
    addAttachment: assign(({ context }, attachment: TicketAttachment) => {
      const refused = attachmentError(attachment, context.attachments)
      return refused
        ? { attachmentError: refused }
        : { attachments: [...context.attachments, attachment], attachmentError: null }
    }),
    removeAttachment: assign(({ context }, index: number) => ({
      attachments: context.attachments.filter((_, position) => position !== index),
      attachmentError: null,
    })),
    resetForm: assign({
      values: EMPTY_DRAFT,
      attachments: [],
      errors: NO_ERRORS,
      attachmentError: null,
      failure: null,
    }),
    showFormErrors: assign(({ context }) => ({ errors: checkForm(context.values) })),
    clearFailure: assign({ failure: null }),
    showFailure: assign({ failure: SUPPORT_TEXTS.failed }),
    announceSubmitted: emit({ type: 'submitted' as const }),
  },
  guards: {
    formIsValid: ({ context }) => {
      const errors = checkForm(context.values)
      return !errors.summary && !errors.description
    },
  },
}).createMachine({
  id: 'supportTicket',
  context: {
    values: EMPTY_DRAFT,
    attachments: [],
    requestedType: null,
    errors: NO_ERRORS,
    attachmentError: null,
    failure: null,
  },
  initial: 'closed',
  states: {
    closed: {
      description: 'No dialog. The Support button or “Ask for a Feature” opens it.',
      on: {
        open: {
          target: 'open',
          actions: { type: 'requestType', params: ({ event }) => event.ticketType ?? null },
        },
      },
    },
    open: {
      description: "The 'Submit a Ticket' dialog.",
      initial: 'loadingDraft',
      states: {
        loadingDraft: {
          description: 'Reads the saved draft so the form comes back as it was left.',
          on: { close: { target: '#supportTicket.closed' } },
          invoke: {
            id: 'loadDraft',
            src: 'loadDraft',
            onDone: {
              target: 'editing',
              actions: { type: 'restoreDraft', params: ({ event }) => event.output },
            },
            onError: {
              description: 'An unreadable draft is dropped: the form starts as it is.',
              target: 'editing',
              actions: 'applyRequestedType',
            },
          },
        },
        editing: {
          description:
            'The form: type, summary, description, steps, priority and attachments. Every change is saved as the draft.',
          on: {
            'field.change': {
              actions: [
                {
                  type: 'setValues',
                  params: ({ event }) => ({ [event.field]: event.value }),
                },
                'saveDraft',
              ],
            },
            'type.change': {
              actions: [
                { type: 'setValues', params: ({ event }) => ({ type: event.value }) },
                'saveDraft',
              ],
            },
            'priority.change': {
              actions: [
                { type: 'setValues', params: ({ event }) => ({ priority: event.value }) },
                'saveDraft',
              ],
            },
            'attachment.add': {
              actions: { type: 'addAttachment', params: ({ event }) => event.attachment },
            },
            'attachment.remove': {
              actions: { type: 'removeAttachment', params: ({ event }) => event.index },
            },
            clear: { actions: ['resetForm', 'clearDraft'] },
            close: { target: '#supportTicket.closed' },
            submit: [
              { guard: 'formIsValid', target: 'submitting', actions: 'clearFailure' },
              {
                description: 'Says which required field is blank; nothing is sent.',
                actions: 'showFormErrors',
              },
            ],
          },
        },
        submitting: {
          description: 'Sends the ticket; the form waits and cannot be closed.',
          tags: ['loading'],
          invoke: {
            id: 'submitTicket',
            src: 'submitTicket',
            input: ({ context }) => ticketPayload(context),
            onDone: {
              target: '#supportTicket.closed',
              actions: ['resetForm', 'clearDraft', 'announceSubmitted'],
            },
            onError: {
              description: 'The failure text shows; the form and its draft stay.',
              target: 'editing',
              actions: 'showFailure',
            },
          },
        },
      },
    },
  },
})
