import * as z from 'zod/mini'
import { citationSchema } from './questionnaires.ts'
import { typedTextChecks } from './text.ts'

/** The chat assistant over the organisation's knowledge (issue 19; spec section 7 'Chat'). */

export const CHAT_ROLES = ['user', 'assistant'] as const
export const CHAT_MESSAGE_STATUSES = ['complete', 'stopped', 'failed'] as const

export const chatSessionSchema = z.object({
  id: z.number(),
  title: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  message_count: z.number(),
})
export type ChatSession = z.infer<typeof chatSessionSchema>
export const chatSessionListSchema = z.object({ results: z.array(chatSessionSchema) })

export const chatMessageSchema = z.object({
  id: z.number(),
  role: z.enum(CHAT_ROLES),
  content: z.string(),
  /** Numbered as the answer cites them: [1] is citations[0]. */
  citations: z.array(citationSchema),
  status: z.enum(CHAT_MESSAGE_STATUSES),
  created_at: z.string(),
})
export type ChatMessage = z.infer<typeof chatMessageSchema>
export const chatHistorySchema = z.object({
  session: chatSessionSchema,
  messages: z.array(chatMessageSchema),
})

const title = z
  .string()
  .check(
    ...typedTextChecks(),
    z.trim(),
    z.minLength(1, 'Enter a name for the conversation'),
    z.maxLength(200, 'The name is at most 200 characters'),
  )

export const chatCreateSchema = z.object({ title: z.optional(title) })
export const chatRenameSchema = z.object({ title })
export const chatSendSchema = z.object({
  content: z
    .string()
    .check(
      ...typedTextChecks(),
      z.trim(),
      z.minLength(1, 'Write a question'),
      z.maxLength(4000, 'A question is at most 4,000 characters'),
    ),
})
export const chatListQuerySchema = z.object({
  q: z.optional(z.string().check(...typedTextChecks(), z.maxLength(200))),
})
/** GET sessions/{id}/export/?format=: the conversation as Markdown (the default) or PDF. */
export const chatExportQuerySchema = z.object({
  format: z._default(z.enum(['markdown', 'pdf']), 'markdown'),
})
/** GET dynamic-questions/?session_id=: follow-up questions, from that conversation's latest. */
export const chatFollowUpQuerySchema = z.object({
  session_id: z.optional(z.coerce.number().check(z.int(), z.positive())),
})

/** POST messages/ answered as JSON (without `Accept: text/event-stream`). */
export const chatReplySchema = z.object({
  question: chatMessageSchema,
  answer: chatMessageSchema,
  session: chatSessionSchema,
})
export type ChatReply = z.infer<typeof chatReplySchema>

/** GET quota/: the organisation's questions this month against its tier's allowance. */
export const chatQuotaSchema = z.object({
  used: z.number(),
  /** Null: no limit. */
  limit: z.nullable(z.number()),
  /** When the count starts again (the first of next month, UTC). */
  resets_at: z.string(),
  /**
   * Whether a language model writes the answers; without one they are quoted from the sources,
   * which the page says once, under the composer.
   */
  language_model: z.boolean(),
})
export type ChatQuota = z.infer<typeof chatQuotaSchema>

/** Server-sent events of a streamed answer, in order: start, token*, citations, done (or error). */
export const CHAT_EVENTS = ['start', 'token', 'citations', 'done', 'error'] as const

export const CHAT_TEXTS = {
  newConversation: 'New conversation',
  quotaReached:
    'Your organisation has used its {limit} chat questions for this month. The count starts again on {date}; a larger plan allows more.',
  nothingFound:
    'I looked for this in your documents, knowledge base and approved answers and found nothing that states it.',
  /**
   * Without a language model the answers are composed from the evidence itself: said once, under
   * the composer, never in an answer.
   */
  extractiveNote:
    'No language model is configured: answers are quoted from your sources. With one, Quire writes a fuller answer from the same evidence.',
  notFound: 'Conversation not found',
  /** The browser's own words, where a call failed without the server's reason. */
  loadFailed: 'The conversations could not be loaded.',
  startFailed: 'The conversation could not be started.',
  renameFailed: 'The conversation could not be renamed.',
  deleteFailed: 'The conversation could not be deleted.',
} as const
