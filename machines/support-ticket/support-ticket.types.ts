import type { TicketPriority, TicketRequest, TicketType } from '../../contract/support.ts'

// ---------------------------------------------------------------------------------------------
// Tags
// ---------------------------------------------------------------------------------------------

/** `loading`: the ticket is being sent; Submit shows its spinner and the form waits. */
export type SupportTicketTags = 'loading'

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

/** The free-text fields of the form; summary and description are required. */
export type TicketTextField = 'summary' | 'description' | 'steps'

/** A file the view has already read: its name, its bytes as base64 and its size in bytes. */
export interface TicketAttachment {
  filename: string
  data: string
  size: number
}

export type SupportTicketEvents =
  /** Opens the dialog; 'Ask for a Feature' passes `Feature Request`. */
  | { type: 'open'; ticketType?: TicketType }
  | { type: 'close' }
  | { type: 'field.change'; field: TicketTextField; value: string }
  | { type: 'type.change'; value: TicketType }
  | { type: 'priority.change'; value: TicketPriority }
  /** A chosen or pasted file. */
  | { type: 'attachment.add'; attachment: TicketAttachment }
  | { type: 'attachment.remove'; index: number }
  /** 'Clear form': empties the form and forgets the draft. */
  | { type: 'clear' }
  | { type: 'submit' }

// ---------------------------------------------------------------------------------------------
// Emitted
// ---------------------------------------------------------------------------------------------

/** What the app does for the machine: keep the draft in localStorage and show the toast. */
export type SupportTicketEmitted =
  | { type: 'draft.save'; draft: TicketDraft }
  | { type: 'draft.clear' }
  | { type: 'submitted' }

// ---------------------------------------------------------------------------------------------
// Actors
// ---------------------------------------------------------------------------------------------

/** The draft kept in localStorage as the user types. Attachments stay in memory only. */
export interface TicketDraft {
  type: TicketType
  summary: string
  description: string
  steps: string
  priority: TicketPriority
}

/** `loadDraft` resolves to the stored draft, or null when there is none (or it is unreadable). */
export type LoadDraftOutput = TicketDraft | null

/**
 * `submitTicket` gets the payload of the contract without what only the browser knows
 * (`browser_info`, `url`): the actor adds those.
 */
export type SubmitTicketInput = Required<Omit<TicketRequest, 'browser_info' | 'url'>>

// ---------------------------------------------------------------------------------------------
// Context
// ---------------------------------------------------------------------------------------------

export interface SupportTicketContext {
  values: TicketDraft
  attachments: TicketAttachment[]
  /** The type the dialog was opened with; it wins over the draft's. */
  requestedType: TicketType | null
  /** Set at submit for a blank required field, cleared as that field is typed in. */
  errors: { summary: string | null; description: string | null }
  /** Why the last file was refused. */
  attachmentError: string | null
  /** The failure text after a failed submit. */
  failure: string | null
}

// ---------------------------------------------------------------------------------------------
// Schema
// ---------------------------------------------------------------------------------------------

export interface SupportTicketSchema {
  context: SupportTicketContext
  events: SupportTicketEvents
  emitted: SupportTicketEmitted
  tags: SupportTicketTags
}
