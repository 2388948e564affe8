import { bodyLimit } from 'hono/body-limit'
import { type output, safeParse } from 'zod/v4/core'
import { ERROR_CODES, ERROR_TEXTS } from '../../../contract/errors.ts'
import { paths } from '../../../contract/paths.ts'
import {
  ATTACHMENT_MAX_COUNT,
  ATTACHMENTS_MAX_TOTAL_BYTES,
  SUPPORT_TEXTS,
  TICKETS_PER_USER_PER_HOUR,
  ticketRequestSchema,
  type ticketResponseSchema,
} from '../../../contract/support.ts'
import type { Authenticator } from '../../auth/middleware.ts'
import type { Permit } from '../../auth/permissions.ts'
import type { RateLimiter } from '../../auth/rate-limit.ts'
import { apiError } from '../../http/errors.ts'
import { areaRouter } from '../../http/route-kit.ts'
import { readJson } from '../../http/validate.ts'
import type { SupportService } from './service.ts'

/**
 * The body limit of the ticket call: all attachments together (20 MB decoded) in base64 (4/3
 * larger), plus 1 MB for the text fields and JSON overhead. Counted as the body streams, so a
 * chunked body is cut off too.
 */
export const TICKET_BODY_LIMIT = Math.ceil(ATTACHMENTS_MAX_TOTAL_BYTES / 3) * 4 + 1024 * 1024

export const ticketBodyLimit = bodyLimit({
  maxSize: TICKET_BODY_LIMIT,
  onError: () => {
    throw apiError(413, SUPPORT_TEXTS.attachmentsTooLarge, {
      msg: SUPPORT_TEXTS.attachmentsTooLarge,
      code: ERROR_CODES.tooLarge,
    })
  },
})

const TICKET_RATE = {
  limit: TICKETS_PER_USER_PER_HOUR,
  windowMs: 60 * 60_000,
  bucketMs: 5 * 60_000,
}

const REQUIRED_TEXTS: Record<string, string> = {
  summary: SUPPORT_TEXTS.summaryRequired,
  description: SUPPORT_TEXTS.descriptionRequired,
}

/** A plain sentence for a schema issue, naming its field. */
function plainIssue(issue: { path: PropertyKey[]; code: string; message: string }) {
  const field = issue.path.map(String).join('.')
  const required = REQUIRED_TEXTS[field]
  if (required && (issue.code === 'too_small' || issue.code === 'invalid_type')) return required
  if (field === 'attachments' && issue.code === 'too_big') {
    return `At most ${ATTACHMENT_MAX_COUNT} files can be attached`
  }
  return field ? `${field}: ${issue.message}` : issue.message
}

/** POST ticketing/tasks/: any signed-in user sends a support ticket for their organisation. */
export function supportRoutes(options: {
  auth: Authenticator
  permit: Permit
  support: SupportService
  limiter: RateLimiter
}) {
  const { support } = options
  const app = areaRouter({ auth: options.auth })

  // every role may ask for help
  app.post(paths.support.createTask, options.permit('read'), async (c) => {
    const raw = await readJson(c)
    const parsed = safeParse(ticketRequestSchema, raw)
    if (!parsed.success) {
      const detail = parsed.error.issues.map((issue) => ({
        field: issue.path.map(String).join('.') || null,
        message: plainIssue(issue),
      }))
      const first = detail[0]?.message ?? ERROR_TEXTS.validation
      throw apiError(400, first, { code: ERROR_CODES.validation, msg: first, detail })
    }
    // tickets per user and hour, counted in PostgreSQL so that the limit holds across nodes; the
    // client shows the spec's failure toast and keeps the draft
    const auth = c.get('auth')
    const sent = await options.limiter.hit(`tickets:${auth.user.id}`, TICKET_RATE)
    if (sent.limited) {
      const msg = SUPPORT_TEXTS.tooManyTickets.replace('{limit}', String(TICKETS_PER_USER_PER_HOUR))
      throw apiError(
        429,
        SUPPORT_TEXTS.failed,
        { msg, code: ERROR_CODES.rateLimited },
        { 'Retry-After': String(sent.retryAfterS) },
      )
    }
    const ticket = await support.createTicket(auth, parsed.data, c.get('log'))
    const body: output<typeof ticketResponseSchema> = {
      status: 'success',
      ticket: {
        id: ticket.id,
        type: ticket.type,
        summary: ticket.summary,
        created_at: ticket.createdAt.toISOString(),
      },
    }
    return c.json(body, 201)
  })

  return app.app
}
