import type { Comment, CommentCreate, Person } from '../../contract/collaboration.ts'
import type { MentionRef } from './mentions.ts'

/* ------------------------------------------------------------------------------ Input */

export interface CommentThreadInput {
  questionId: number
  /** The signed-in person (their own comments may be edited and deleted); null: not known yet. */
  userId: number | null
  /** An admin: deletes anyone's comment. */
  moderator: boolean
}

/* ---------------------------------------------------------------------------- Context */

/** What the composer writes: a new thread, a reply to a thread, or an edit of one's own. */
export interface Composer {
  mode: 'new' | 'reply' | 'edit'
  /** The thread's first comment (reply) or the comment edited; null for a new thread. */
  targetId: number | null
  body: string
  caret: number
  mentions: MentionRef[]
}

/** The "@name" being typed and the people it matches. */
export interface MentionQuery {
  start: number
  query: string
  matches: Person[]
  highlight: number
}

/** One call on the thread; kept when it fails, so that Retry sends it again. */
export type CommentAction =
  | { kind: 'create'; questionId: number; request: CommentCreate }
  | { kind: 'edit'; id: number; request: { body: string; mentions: number[] } }
  | { kind: 'delete'; id: number }
  | { kind: 'resolve'; id: number }
  | { kind: 'reopen'; id: number }

export interface CommentThreadContext extends CommentThreadInput {
  comments: Comment[]
  people: Person[]
  composer: Composer
  mention: MentionQuery | null
  /** The "@" whose suggestions were closed with Escape: they stay closed while it is typed. */
  dismissed: number | null
  /** The comment whose deletion waits for a confirmation. */
  deleting: number | null
  action: CommentAction | null
  failed: CommentAction | null
  error: string | null
}

/* ----------------------------------------------------------------------------- Events */

export type CommentThreadEvents =
  /** The question's row changed (someone commented): the comments are read again. */
  | { type: 'refresh' }
  | { type: 'retry' }
  | { type: 'dismiss' }
  | { type: 'body.change'; body: string; caret: number }
  | { type: 'mention.move'; by: 1 | -1 }
  /** A person of the suggestions; without one, the highlighted person. */
  | { type: 'mention.choose'; personId?: number }
  | { type: 'mention.close' }
  | { type: 'reply.open'; threadId: number }
  | { type: 'edit.open'; commentId: number }
  | { type: 'compose.cancel' }
  | { type: 'submit' }
  | { type: 'delete'; commentId: number }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' }
  | { type: 'resolve'; threadId: number }
  | { type: 'reopen'; threadId: number }

/* ---------------------------------------------------------------------------- Emitted */

/** The question's count of open threads changed: the workspace's row shows it. */
export type CommentThreadEmitted = { type: 'changed'; questionId: number; open: number }
