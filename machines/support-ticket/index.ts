import type { SnapshotFrom } from 'xstate'
import type { supportTicketMachine } from './support-ticket.machine.ts'

export {
  ATTACHMENT_COUNT_TEXT,
  attachmentError,
  EMPTY_DRAFT,
  supportTicketMachine,
} from './support-ticket.machine.ts'
export type * from './support-ticket.types.ts'

type Snapshot = SnapshotFrom<typeof supportTicketMachine>

export const selectIsOpen = (snapshot: Snapshot) => snapshot.matches('open')
/** The draft is still being read: the fields wait for it. */
export const selectIsLoadingDraft = (snapshot: Snapshot) =>
  snapshot.matches({ open: 'loadingDraft' })
export const selectValues = (snapshot: Snapshot) => snapshot.context.values
export const selectAttachments = (snapshot: Snapshot) => snapshot.context.attachments
export const selectErrors = (snapshot: Snapshot) => snapshot.context.errors
export const selectAttachmentError = (snapshot: Snapshot) => snapshot.context.attachmentError
export const selectFailure = (snapshot: Snapshot) => snapshot.context.failure
export const selectIsSubmitting = (snapshot: Snapshot) => snapshot.hasTag('loading')

/** What support-dialog reads, through `useView`. */
export const supportTicketView = {
  open: selectIsOpen,
  values: selectValues,
  attachments: selectAttachments,
  errors: selectErrors,
  attachmentError: selectAttachmentError,
  failure: selectFailure,
  submitting: selectIsSubmitting,
}
