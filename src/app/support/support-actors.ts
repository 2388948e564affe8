import { type Actor, fromPromise } from 'xstate'
import * as z from 'zod/mini'
import { paths } from '../../../contract/paths.ts'
import {
  TICKET_DRAFT_KEY,
  TICKET_PRIORITIES,
  TICKET_TYPES,
  ticketResponseSchema,
} from '../../../contract/support.ts'
import {
  type LoadDraftOutput,
  type SubmitTicketInput,
  supportTicketMachine,
  type TicketAttachment,
  type TicketDraft,
} from '../../../machines/support-ticket/index.ts'
import { type ApiClient, api } from '../../api/client.ts'

const draftSchema = z.object({
  type: z.enum(TICKET_TYPES),
  summary: z.string(),
  description: z.string(),
  steps: z.string(),
  priority: z.enum(TICKET_PRIORITIES),
})

/** The stored draft, or null when there is none or it no longer has the draft's shape. */
export function readDraft(storage: Storage = localStorage): TicketDraft | null {
  try {
    const raw = storage.getItem(TICKET_DRAFT_KEY)
    if (!raw) return null
    const parsed = draftSchema.safeParse(JSON.parse(raw))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

export function writeDraft(draft: TicketDraft, storage: Storage = localStorage) {
  try {
    storage.setItem(TICKET_DRAFT_KEY, JSON.stringify(draft))
  } catch {
    // a full or blocked storage loses the draft, not the form
  }
}

export function removeDraft(storage: Storage = localStorage) {
  storage.removeItem(TICKET_DRAFT_KEY)
}

/** The real side effects of the support ticket machine: the draft in localStorage, the API. */
export function supportActors(client: ApiClient = api) {
  return {
    loadDraft: fromPromise<LoadDraftOutput>(async () => readDraft()),
    // the answer is checked against the contract; the ticket it names is not shown
    submitTicket: fromPromise<void, SubmitTicketInput>(async ({ input }) => {
      await client.post(
        paths.support.createTask,
        { ...input, browser_info: navigator.userAgent, url: location.href },
        ticketResponseSchema,
      )
    }),
  }
}

/** The machine with the real actors; tests pass their own. */
export const createSupportTicketLogic = (actors = supportActors()) =>
  supportTicketMachine.provide({ actors })

export type SupportTicketLogic = ReturnType<typeof createSupportTicketLogic>
export type SupportTicketActorRef = Actor<SupportTicketLogic>

/**
 * Carries out what the machine emits: the draft is written or removed as the user types, and a
 * sent ticket becomes the success toast. Returns the unsubscribe.
 */
export function connectSupportTicket(
  actor: Pick<SupportTicketActorRef, 'on'>,
  onSubmitted: () => void,
  storage: Storage = localStorage,
) {
  const subscriptions = [
    actor.on('draft.save', (event) => writeDraft(event.draft, storage)),
    actor.on('draft.clear', () => removeDraft(storage)),
    actor.on('submitted', onSubmitted),
  ]
  return () => {
    for (const subscription of subscriptions) subscription.unsubscribe()
  }
}

/** Reads a chosen or pasted file for the machine: base64 without the data: URL prefix. */
export function readAttachment(file: File, filename = file.name): Promise<TicketAttachment> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => {
      const url = typeof reader.result === 'string' ? reader.result : ''
      resolve({ filename, data: url.slice(url.indexOf(',') + 1), size: file.size })
    }
    reader.onerror = () => reject(reader.error ?? new Error(`Could not read ${filename}`))
    reader.readAsDataURL(file)
  })
}
