import type { SnapshotFrom } from 'xstate'
import type { chatConversationMachine } from './chat-conversation.machine.ts'

export * from './chat-conversation.machine.ts'

type Snapshot = SnapshotFrom<typeof chatConversationMachine>

/** What the conversation view reads, through `useView`. */
export const chatConversationView = {
  messages: (s: Snapshot) => s.context.messages,
  draft: (s: Snapshot) => s.context.draft,
  asking: (s: Snapshot) => s.context.asking,
  streamed: (s: Snapshot) => s.context.streamed,
  citations: (s: Snapshot) => s.context.citations,
  error: (s: Snapshot) => s.context.error,
  quota: (s: Snapshot) => s.context.quota,
  followUps: (s: Snapshot) => s.context.followUps,
  loading: (s: Snapshot) => s.hasTag('loading'),
  streaming: (s: Snapshot) => s.hasTag('streaming'),
  failed: (s: Snapshot) => s.matches('failed'),
  exhausted: (s: Snapshot) => s.matches('quotaExhausted'),
}
