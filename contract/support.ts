import * as z from 'zod/mini'

/**
 * Support tickets (spec sections 1, 2, 3, 4, 5, 7, 8): any signed-in user can send a bug, feature
 * request, feedback, question or idea from inside the app.
 */

export const TICKET_TYPES = [
  'Bug',
  'Feature Request',
  'Feedback',
  'Question',
  'Idea / Random',
] as const
export type TicketType = (typeof TICKET_TYPES)[number]
export const TICKET_PRIORITIES = ['Low', 'Medium', 'High'] as const
export type TicketPriority = (typeof TICKET_PRIORITIES)[number]

/** Attachments: images, .pdf, .txt and .log (spec section 5); the hint says up to 10MB each. */
export const ATTACHMENT_ACCEPT = 'image/*,.pdf,.txt,.log'
export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024
export const ATTACHMENT_MAX_COUNT = 5
/** All of one ticket's attachments together, decoded. */
export const ATTACHMENTS_MAX_TOTAL_BYTES = 20 * 1024 * 1024
/** Tickets one user may send in an hour; past it the call answers 429 with Retry-After. */
export const TICKETS_PER_USER_PER_HOUR = 10
const ATTACHMENT_NAME = /\.(png|jpe?g|gif|webp|bmp|svg|heic|pdf|txt|log)$/i
export const isAcceptedAttachmentName = (name: string) => ATTACHMENT_NAME.test(name)

/** The fixed localStorage key of the ticket draft (spec section 4). */
export const TICKET_DRAFT_KEY = 'quire.support-ticket-draft'

export const ticketAttachmentSchema = z.object({
  filename: z.string().check(z.minLength(1), z.maxLength(255)),
  /** Base64 of the file's bytes (a data: URL prefix is accepted and ignored). */
  data: z.string().check(z.minLength(1)),
})

export const ticketRequestSchema = z.object({
  type: z.enum(TICKET_TYPES),
  summary: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
  description: z.string().check(z.trim(), z.minLength(1), z.maxLength(20_000)),
  steps: z._default(z.string().check(z.maxLength(20_000)), ''),
  priority: z._default(z.enum(TICKET_PRIORITIES), 'Medium'),
  browser_info: z._default(z.string().check(z.maxLength(2_000)), ''),
  url: z._default(z.string().check(z.maxLength(2_000)), ''),
  attachments: z._default(
    z.array(ticketAttachmentSchema).check(z.maxLength(ATTACHMENT_MAX_COUNT)),
    [],
  ),
  /** Ids and values for a type category and the source marker 'Web App'. */
  custom_fields: z._default(
    z.array(z.object({ id: z.string(), value: z.string() })).check(z.maxLength(20)),
    [],
  ),
})
export type TicketRequest = z.input<typeof ticketRequestSchema>

export const ticketResponseSchema = z.object({
  status: z.literal('success'),
  ticket: z.object({
    id: z.number(),
    type: z.enum(TICKET_TYPES),
    summary: z.string(),
    created_at: z.string(),
  }),
})

export const SUPPORT_TEXTS = {
  title: 'Submit a ticket',
  attachmentHint: 'Images, PDF, TXT or LOG files, up to 10MB each. You can also paste images.',
  clearForm: 'Clear form',
  submitted: 'Ticket submitted successfully!',
  failed: 'Failed to submit ticket. Please try again. Your data has been saved.',
  summaryRequired: 'Summary is required',
  descriptionRequired: 'Description is required',
  attachmentType: 'Only images, .pdf, .txt and .log files can be attached',
  attachmentTooLarge: 'Attachments can be up to 10MB each',
  attachmentsTooLarge: 'Attachments can be up to 20MB in total',
  tooManyTickets: 'You have sent {limit} tickets in the last hour. Please try again later.',
  /** The spec names no text for too many files: ours. */
  attachmentCount: `You can attach up to ${ATTACHMENT_MAX_COUNT} files`,
} as const
