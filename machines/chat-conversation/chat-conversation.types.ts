import type { ChatMessage, ChatQuota, ChatSession } from '../../contract/chat.ts'
import type { Citation } from '../../contract/questionnaires.ts'

/** The chat conversation's context and events, and what its stream and load bring. */

/** What the streaming actor tells the conversation, in order. */
export type StreamEvent =
  | { type: 'stream.token'; text: string }
  | { type: 'stream.citations'; citations: Citation[] }
  | { type: 'stream.done'; answer: ChatMessage; session: ChatSession }
  | { type: 'stream.error'; status: number; message: string }

export type ChatConversationEvents =
  | { type: 'draft.change'; value: string }
  | { type: 'send' }
  /** A suggested follow-up, asked as it is. */
  | { type: 'ask'; content: string }
  | { type: 'stop' }
  | { type: 'retry' }
  /** Downloads the conversation. */
  | { type: 'export'; format: 'markdown' | 'pdf' }
  /** Opens a cited document at the cited page. */
  | { type: 'source.open'; fileId: number; page: number | null }
  | StreamEvent

export interface ConversationLoad {
  messages: ChatMessage[]
  quota: ChatQuota
  followUps: string[]
}

export interface ChatConversationContext {
  sessionId: number
  messages: ChatMessage[]
  draft: string
  /** The question on its way, and the answer as it streams in. */
  asking: string | null
  streamed: string
  citations: Citation[]
  error: string | null
  quota: ChatQuota | null
  followUps: string[]
}
