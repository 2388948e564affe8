export * from './comment-thread.machine.ts'
export type * from './comment-thread.types.ts'
export * from './mentions.ts'

import type { SnapshotFrom } from 'xstate'
import type { commentThreadMachine } from './comment-thread.machine.ts'

type Snapshot = SnapshotFrom<typeof commentThreadMachine>

/** What the comments of the answer panel read, through `useView`. */
export const commentThreadView = {
  loading: (s: Snapshot) => s.matches({ thread: 'loading' }),
  loadFailed: (s: Snapshot) => s.matches({ thread: 'failed' }),
  comments: (s: Snapshot) => s.context.comments,
  composer: (s: Snapshot) => s.context.composer,
  mention: (s: Snapshot) => s.context.mention,
  deleting: (s: Snapshot) => s.context.deleting,
  /** The call running: its kind and the comment it is about. */
  action: (s: Snapshot) => s.context.action,
  /** The composer's text is being sent: it waits. */
  sending: (s: Snapshot) =>
    s.context.action?.kind === 'create' || s.context.action?.kind === 'edit',
  error: (s: Snapshot) => s.context.error,
  retryable: (s: Snapshot) => s.context.failed !== null || s.matches({ thread: 'failed' }),
}
