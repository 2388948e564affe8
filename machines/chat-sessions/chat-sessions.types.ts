import type { ChatSession } from '../../contract/chat.ts'

// ---------------------------------------------------------------------------------------------
// Tags
// ---------------------------------------------------------------------------------------------

/** `loading`: the list is being read; `busy`: a conversation is started, renamed or deleted. */
export type ChatSessionsTags = 'loading' | 'busy'

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

export type ChatSessionsEvents =
  | { type: 'search'; q: string }
  | { type: 'select'; id: number }
  | { type: 'create' }
  | { type: 'rename'; id: number; title: string }
  | { type: 'delete'; id: number }
  | { type: 'refresh' }
  | { type: 'retry' }

// ---------------------------------------------------------------------------------------------
// Context
// ---------------------------------------------------------------------------------------------

export interface ChatSessionsContext {
  sessions: ChatSession[]
  q: string
  selectedId: number | null
  error: string | null
}

// ---------------------------------------------------------------------------------------------
// Emitted
// ---------------------------------------------------------------------------------------------

/** The conversation to show (null: none). */
export type ChatSessionsEmitted = { type: 'selected'; id: number | null }

// ---------------------------------------------------------------------------------------------
// Schema
// ---------------------------------------------------------------------------------------------

export interface ChatSessionsSchema {
  context: ChatSessionsContext
  events: ChatSessionsEvents
  emitted: ChatSessionsEmitted
  tags: ChatSessionsTags
}
