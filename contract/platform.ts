import * as z from 'zod/mini'
import { citationSchema } from './answers.ts'

/**
 * The open platform (issue 41): API keys for programs, and (later slices) the OpenAPI document,
 * the MCP server and outgoing webhooks.
 */

/** What a key may do: read, or read and change the work. Never people, billing, SSO or settings. */
export const API_KEY_SCOPES = ['read', 'write'] as const
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number]

/** Every key starts so; the rest is random. */
export const API_KEY_PREFIX = 'qk_'

export const API_KEY_TEXTS = {
  invalid: 'This API key is invalid, expired or revoked.',
  notForKeys: 'An API key cannot be used for this call: sign in as a person.',
  scope: 'This API key may only read: give it the write scope to change anything.',
  tooMany: 'Too many calls with this API key: try again in a minute.',
  expiryPast: 'An expiry date is in the future',
  alreadyRevoked: 'This API key is already revoked.',
  mcpKey: 'Connect with an API key: Authorization: Bearer qk_… (made in Settings → API keys).',
} as const

export const apiKeyCreateSchema = z.object({
  name: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'Name the key'),
      z.maxLength(100, 'A key’s name is at most 100 characters'),
    ),
  scopes: z.array(z.enum(API_KEY_SCOPES)).check(
    z.minLength(1, 'Give the key a scope: read, or read and write'),
    z.refine((list) => new Set(list).size === list.length, 'A scope is listed once'),
  ),
  /** When the key stops working (ISO 8601); none: until revoked. */
  expires_at: z.optional(
    z.nullable(z.iso.datetime({ offset: true, message: 'An expiry is an ISO 8601 date and time' })),
  ),
})
export type ApiKeyCreate = z.input<typeof apiKeyCreateSchema>

export const apiKeySchema = z.object({
  id: z.int(),
  name: z.string(),
  /** The first characters of the key, to tell keys apart (the key itself is never shown again). */
  prefix: z.string(),
  scopes: z.array(z.enum(API_KEY_SCOPES)),
  created_at: z.string(),
  created_by: z.nullable(z.object({ id: z.int(), name: z.string() })),
  last_used_at: z.nullable(z.string()),
  expires_at: z.nullable(z.string()),
  revoked_at: z.nullable(z.string()),
})
export type ApiKey = z.infer<typeof apiKeySchema>
export const apiKeyListSchema = z.object({ results: z.array(apiKeySchema) })
/** The answer to a creation: the key itself, this once. */
export const apiKeyCreatedSchema = z.extend(apiKeySchema, { key: z.string() })
export type ApiKeyCreated = z.infer<typeof apiKeyCreatedSchema>

/* ------------------------------------------------------------ one question, answered */

/** POST knowledge-base/answer/: a question answered from the organisation's knowledge. */
export const questionAskSchema = z.object({
  question: z
    .string()
    .check(
      z.trim(),
      z.minLength(3, 'Ask a question'),
      z.maxLength(2000, 'A question is at most 2,000 characters'),
    ),
})
export const questionAnswerSchema = z.object({
  question: z.string(),
  /** Whether the knowledge answers it (else `note` says why not). */
  answered: z.boolean(),
  /** The answer's words; its choice among Yes, No, N/A for a yes/no question. */
  answer: z.string(),
  choice: z.nullable(z.string()),
  /** Calibrated: the share of such answers found right when measured. */
  confidence: z.nullable(z.number()),
  band: z.nullable(z.enum(['high', 'medium', 'low'])),
  citations: z.array(citationSchema),
  note: z.nullable(z.string()),
})
export type QuestionAnswer = z.infer<typeof questionAnswerSchema>

/* ------------------------------------------------------------------------------- webhooks */

/** What Quire tells other systems of (issue 41). */
export const WEBHOOK_EVENTS = [
  'questionnaire.analysed',
  'generation.completed',
  'answer.approved',
  'questionnaire.exported',
  'trust.access_requested',
  'library.answer_stale',
] as const
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]

/** A Standard Webhooks endpoint, or a Slack or Teams incoming webhook (a message per event). */
export const WEBHOOK_KINDS = ['standard', 'slack', 'teams'] as const
export type WebhookKind = (typeof WEBHOOK_KINDS)[number]

export const WEBHOOK_TEXTS = {
  https:
    'A webhook’s address starts with https:// (plain http only for addresses allowed by URL_FETCH_ALLOW).',
  disabled: 'Disabled after a day of failed deliveries: fix the endpoint, then enable it again.',
} as const

export const webhookCreateSchema = z.object({
  url: z.url('Enter the endpoint’s address, as https://…').check(z.maxLength(2000)),
  events: z.array(z.enum(WEBHOOK_EVENTS)).check(
    z.minLength(1, 'Choose at least one event'),
    z.refine((list) => new Set(list).size === list.length, 'An event is listed once'),
  ),
  kind: z._default(z.enum(WEBHOOK_KINDS), 'standard'),
  description: z.optional(z.string().check(z.trim(), z.maxLength(200))),
})
export type WebhookCreate = z.input<typeof webhookCreateSchema>

export const webhookSchema = z.object({
  id: z.int(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  kind: z.enum(WEBHOOK_KINDS),
  description: z.string(),
  enabled: z.boolean(),
  /** Why it was disabled (a day of failures), or null. */
  disabled_reason: z.nullable(z.string()),
  /** Since when every delivery fails; null while it succeeds. */
  failing_since: z.nullable(z.string()),
  created_at: z.string(),
})
export type Webhook = z.infer<typeof webhookSchema>
export const webhookListSchema = z.object({ results: z.array(webhookSchema) })
/** The answer to a creation: the signing secret (whsec_…), this once. */
export const webhookCreatedSchema = z.extend(webhookSchema, { secret: z.string() })

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const
export const webhookAttemptSchema = z.object({
  attempt: z.int(),
  /** The endpoint's HTTP status; null when it could not be reached. */
  status_code: z.nullable(z.int()),
  latency_ms: z.nullable(z.int()),
  error: z.nullable(z.string()),
  at: z.string(),
})
export const webhookDeliverySchema = z.object({
  id: z.int(),
  /** The message id, the same on every attempt (`webhook-id`). */
  message_id: z.string(),
  event: z.enum(WEBHOOK_EVENTS),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.array(webhookAttemptSchema),
  next_attempt_at: z.nullable(z.string()),
  created_at: z.string(),
  payload: z.record(z.string(), z.unknown()),
})
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>
export const webhookDeliveryListSchema = z.object({ results: z.array(webhookDeliverySchema) })
