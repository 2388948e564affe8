import type { output } from 'zod/v4/core'
import { ERROR_CODES } from '../../../contract/errors.ts'
import {
  ATTACHMENTS_MAX_TOTAL_BYTES,
  SUPPORT_TEXTS,
  type ticketRequestSchema,
} from '../../../contract/support.ts'
import type { AuthContext } from '../../auth/context.ts'
import type { Database } from '../../db/index.ts'
import { supportTicketAttachments, supportTickets } from '../../db/schema.ts'
import { apiError } from '../../http/errors.ts'
import type { Logger } from '../../logger.ts'
import { checkAttachment } from './attachments.ts'

export type TicketInput = output<typeof ticketRequestSchema>

export interface CreatedTicket {
  id: number
  type: TicketInput['type']
  summary: string
  createdAt: Date
  attachments: number
}

/**
 * Support tickets. The organisation and the sender come only from the authenticated context
 * (TI3): the request body is parsed by a schema that has no place for them.
 */
export function createSupportService(options: { database: Database }) {
  const { db } = options.database

  async function createTicket(
    auth: AuthContext,
    input: TicketInput,
    log: Logger,
  ): Promise<CreatedTicket> {
    // Every attachment is checked before anything is written.
    const attachments = input.attachments.map(checkAttachment)
    const total = attachments.reduce((sum, file) => sum + file.data.length, 0)
    if (total > ATTACHMENTS_MAX_TOTAL_BYTES)
      throw apiError(413, SUPPORT_TEXTS.attachmentsTooLarge, {
        msg: SUPPORT_TEXTS.attachmentsTooLarge,
        code: ERROR_CODES.tooLarge,
      })
    const orgId = auth.org.id
    const ticket = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(supportTickets)
        .values({
          orgId,
          userId: auth.user.id,
          type: input.type,
          summary: input.summary,
          description: input.description,
          steps: input.steps,
          priority: input.priority,
          browserInfo: input.browser_info,
          url: input.url,
          customFields: input.custom_fields,
        })
        .returning({
          id: supportTickets.id,
          type: supportTickets.type,
          summary: supportTickets.summary,
          createdAt: supportTickets.createdAt,
        })
      if (!row) throw new Error('support ticket insert returned no row')
      if (attachments.length > 0) {
        await tx.insert(supportTicketAttachments).values(
          attachments.map((file) => ({
            ticketId: row.id,
            orgId,
            filename: file.filename,
            contentType: file.contentType,
            sizeBytes: file.data.length,
            data: file.data,
          })),
        )
      }
      return row
    })

    // Forwarding to an external ticketing provider goes here, after the commit: when a future
    // config token (e.g. SUPPORT_TICKETING_TOKEN with its provider URL) is set, send the stored
    // ticket and its attachments to the provider's tasks API, ideally as a retried background
    // job so a provider outage never loses a ticket. No network is reachable here, so tickets are
    // only stored.

    // ids and sizes only: never the ticket's text or files
    log.info(
      {
        ticketId: ticket.id,
        orgId,
        userId: auth.user.id,
        type: ticket.type,
        attachments: attachments.length,
        attachmentBytes: attachments.reduce((sum, file) => sum + file.data.length, 0),
      },
      'support ticket created',
    )
    return { ...ticket, attachments: attachments.length }
  }

  return { createTicket }
}

export type SupportService = ReturnType<typeof createSupportService>
