import type { SnapshotFrom } from 'xstate'
import type { trustAskMachine } from './trust-ask.machine.ts'

export * from './trust-ask.machine.ts'

type Snapshot = SnapshotFrom<typeof trustAskMachine>

/** What the trust centre's ask box reads. */
export const trustAskView = {
  question: (s: Snapshot) => s.context.question,
  asked: (s: Snapshot) => s.context.asked,
  answer: (s: Snapshot) => s.context.answer,
  error: (s: Snapshot) => s.context.error,
  asking: (s: Snapshot) => s.hasTag('busy'),
}
