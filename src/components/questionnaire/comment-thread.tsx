import { useActorRef } from '@xstate/react'
import { CheckCircle2, MessageSquare, Pencil, Reply, RotateCcw, Trash2 } from 'lucide-react'
import { css, cx } from 'styled-system/css'
import { flex, stack } from 'styled-system/patterns'
import type { ActorRefFrom } from 'xstate'
import type { Comment } from '../../../contract/collaboration.ts'
import {
  type commentThreadMachine,
  commentThreadView,
  openThreads,
  piecesOf,
} from '../../../machines/comment-thread/index.ts'
import type { questionnaireWorkspaceMachine } from '../../../machines/questionnaire-workspace/index.ts'
import { selectProfile } from '../../../machines/session/index.ts'
import { SessionContext } from '../../app/session.tsx'
import { useEmitted } from '../../app/use-emitted.ts'
import { useView, type ViewOf } from '../../app/use-view.ts'
import { formatExact } from '../../lib/format.ts'
import { RelativeTime } from '../relative-time.tsx'
import { InitialsAvatar } from '../ui/avatar.tsx'
import { Button } from '../ui/button.tsx'
import { Spinner } from '../ui/spinner.tsx'
import { actions, alert, hint, sectionTitle } from './answer-styles.ts'
import { CommentComposer } from './comment-composer.tsx'

type ThreadRef = ActorRefFrom<typeof commentThreadMachine>
type View = ViewOf<typeof commentThreadView>

const threadBox = css({
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'l2',
  p: '3',
  display: 'grid',
  gap: '3',
  minW: '0',
})
const replies = stack({ gap: '3', ps: '3', borderLeftWidth: '2px', borderColor: 'border.subtle' })
const head = flex({ align: 'center', gap: '2', wrap: 'wrap', textStyle: 'xs', color: 'fg.muted' })
const author = css({ fontWeight: 'semibold', color: 'fg.default', textStyle: 'sm' })
const bodyText = css({
  textStyle: 'sm',
  lineHeight: '1.55',
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
  mt: '1',
})
const mentionText = css({
  colorPalette: 'accent',
  color: 'colorPalette.text',
  bg: 'colorPalette.a3',
  borderRadius: 'l1',
  px: '0.5',
  fontWeight: 'medium',
  whiteSpace: 'nowrap',
})
const gone = css({ textStyle: 'sm', color: 'fg.muted', fontStyle: 'italic', mt: '1' })
const folded = css({
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'l2',
  bg: 'bg.subtle',
  px: '3',
  py: '2',
  textStyle: 'sm',
  '& > summary': { cursor: 'pointer', color: 'fg.muted', overflowWrap: 'anywhere' },
  '&[open] > summary': { mb: '3' },
})
const linkButtons = flex({ gap: '1', wrap: 'wrap', mt: '1', ms: '-2' })

/** What a comment says: plain text, with the "@Name" of each person it mentions highlighted. */
export function CommentText(props: { comment: Comment }) {
  const { comment } = props
  if (comment.deleted) return <p className={gone}>Comment deleted</p>
  const pieces = piecesOf(
    comment.body,
    comment.mentions.map((m) => m.name),
  )
  return (
    <p className={bodyText} data-testid="comment-body">
      {pieces.map((piece, index) =>
        piece.mention ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one text, in order
          <span key={index} className={mentionText}>
            {piece.text}
          </span>
        ) : (
          piece.text
        ),
      )}
    </p>
  )
}

/**
 * A question's comments (issue 29): each thread's first comment and its replies, who wrote them
 * and when; one's own are edited and deleted, a thread is answered, resolved (then folded) and
 * reopened. People who may not write (viewers) read them.
 */
export function CommentThread(props: {
  questionId: number
  logic: typeof commentThreadMachine
  mayWrite: boolean
  onOpenCount: (questionId: number, open: number) => void
  /** The workspace whose row of this question changes when someone else comments. */
  workspace?: ActorRefFrom<typeof questionnaireWorkspaceMachine>
}) {
  const profile = SessionContext.useSelector(selectProfile)
  const userId = profile?.user.id ?? null
  const thread = useActorRef(props.logic, {
    input: { questionId: props.questionId, userId, moderator: profile?.user.role === 'admin' },
  })
  const view = useView(thread, commentThreadView)
  const { onOpenCount } = props
  const { workspace, questionId } = props
  useEmitted(() => {
    // a new row object for this question: it changed (a comment of someone else's, read again)
    const rowOf = () => workspace?.getSnapshot().context.rows.find((r) => r.id === questionId)
    let last = rowOf()
    return [
      thread.on('changed', (event) => onOpenCount(event.questionId, event.open)),
      ...(workspace
        ? [
            workspace.subscribe(() => {
              const row = rowOf()
              if (row === last) return
              last = row
              thread.send({ type: 'refresh' })
            }),
          ]
        : []),
    ]
  }, [thread, onOpenCount, workspace, questionId])
  const firsts = view.comments.filter((c) => c.parent_id === null)
  const open = openThreads(view.comments)
  const composing = view.composer.mode === 'new' && props.mayWrite
  const shared = {
    thread,
    view,
    userId,
    mayWrite: props.mayWrite,
    moderator: profile?.user.role === 'admin',
  }

  return (
    <section className={css({ display: 'grid', gap: '3', minW: '0' })} aria-label="Comments">
      <h3 className={cx(sectionTitle, flex({ align: 'center', gap: '1.5' }))}>
        <MessageSquare size={13} aria-hidden /> Comments
        {open > 0 && <span data-testid="open-threads">· {open} open</span>}
      </h3>
      {view.loading && (
        <p className={cx(hint, flex({ align: 'center', gap: '2' }))}>
          <Spinner size="sm" /> Loading the comments…
        </p>
      )}
      {!view.loading && !view.loadFailed && firsts.length === 0 && (
        <p className={hint}>
          No comments yet.{props.mayWrite && ' Ask a question or leave a note for the team.'}
        </p>
      )}
      {firsts.map((first) => (
        <Thread
          key={first.id}
          first={first}
          replies={view.comments.filter((c) => c.parent_id === first.id)}
          {...shared}
        />
      ))}
      {view.error && (
        <div className={alert} role="alert">
          <p className={css({ flex: '1' })}>{view.error}</p>
          <div className={actions}>
            {view.retryable && (
              <Button size="xs" variant="outline" onClick={() => thread.send({ type: 'retry' })}>
                <RotateCcw /> Retry
              </Button>
            )}
            {!view.loadFailed && (
              <Button size="xs" variant="ghost" onClick={() => thread.send({ type: 'dismiss' })}>
                Dismiss
              </Button>
            )}
          </div>
        </div>
      )}
      {composing && !view.loading && !view.loadFailed && (
        <CommentComposer
          thread={thread}
          composer={view.composer}
          mention={view.mention}
          sending={view.sending}
        />
      )}
    </section>
  )
}

interface Shared {
  thread: ThreadRef
  view: View
  userId: number | null
  mayWrite: boolean
  moderator: boolean
}

/** A thread: open, its comments and actions; resolved, folded to one line with Reopen. */
function Thread(props: Shared & { first: Comment; replies: Comment[] }) {
  const { first, thread, view, mayWrite } = props
  const busy = view.action !== null
  const replying = view.composer.mode === 'reply' && view.composer.targetId === first.id
  const reopen = mayWrite && (
    <Button
      size="xs"
      variant="outline"
      loading={view.action?.kind === 'reopen' && view.action.id === first.id}
      disabled={busy}
      onClick={() => thread.send({ type: 'reopen', threadId: first.id })}
    >
      <RotateCcw /> Reopen
    </Button>
  )
  const comments = (
    <>
      <CommentItem comment={first} {...props} />
      {props.replies.length > 0 && (
        <div className={replies}>
          {props.replies.map((reply) => (
            <CommentItem key={reply.id} comment={reply} {...props} />
          ))}
        </div>
      )}
    </>
  )
  if (first.resolved_at) {
    const count = props.replies.length + 1
    return (
      <details className={folded} data-testid="comment-thread" data-resolved="">
        <summary>
          <CheckCircle2 size={13} aria-hidden className={css({ display: 'inline', me: '1' })} />
          Resolved{first.resolved_by ? ` by ${first.resolved_by.name}` : ''} · {count} comment
          {count === 1 ? '' : 's'}
          {!first.deleted && first.body && (
            <span className={css({ color: 'fg.default' })}>
              {' '}
              · “{first.body.slice(0, 60)}
              {first.body.length > 60 ? '…' : ''}”
            </span>
          )}
        </summary>
        <div className={stack({ gap: '3' })}>
          {comments}
          {reopen && <div className={actions}>{reopen}</div>}
        </div>
      </details>
    )
  }
  return (
    <article className={threadBox} data-testid="comment-thread">
      {comments}
      {replying ? (
        <CommentComposer
          thread={thread}
          composer={view.composer}
          mention={view.mention}
          sending={view.sending}
        />
      ) : (
        mayWrite && (
          <div className={actions}>
            <Button
              size="xs"
              variant="outline"
              disabled={busy}
              onClick={() => thread.send({ type: 'reply.open', threadId: first.id })}
            >
              <Reply /> Reply
            </Button>
            <Button
              size="xs"
              variant="outline"
              loading={view.action?.kind === 'resolve' && view.action.id === first.id}
              disabled={busy}
              onClick={() => thread.send({ type: 'resolve', threadId: first.id })}
            >
              <CheckCircle2 /> Resolve
            </Button>
          </div>
        )
      )}
    </article>
  )
}

/** One comment: its author, when, whether edited, its text; one's own are edited and deleted. */
function CommentItem(props: Shared & { comment: Comment }) {
  const { comment, thread, view } = props
  const own =
    props.userId !== null && comment.author?.id === String(props.userId) && !comment.deleted
  const mayDelete = props.mayWrite && !comment.deleted && (own || props.moderator)
  const editing = view.composer.mode === 'edit' && view.composer.targetId === comment.id
  const name = comment.author?.name ?? 'Someone removed'
  return (
    <div className={flex({ gap: '2.5', align: 'flex-start', minW: '0' })} data-testid="comment">
      <InitialsAvatar name={name} size="xs" className={css({ flexShrink: '0', mt: '0.5' })} />
      <div className={css({ flex: '1', minW: '0' })}>
        <div className={head}>
          <span className={author}>{name}</span>
          <time dateTime={comment.created_at} title={formatExact(comment.created_at)}>
            <RelativeTime iso={comment.created_at} />
          </time>
          {comment.edited_at && !comment.deleted && (
            <span title={`Edited ${formatExact(comment.edited_at)}`}>· edited</span>
          )}
        </div>
        {editing ? (
          <div className={css({ mt: '1' })}>
            <CommentComposer
              thread={thread}
              composer={view.composer}
              mention={view.mention}
              sending={view.sending}
            />
          </div>
        ) : (
          <CommentText comment={comment} />
        )}
        {view.deleting === comment.id ? (
          <div className={cx(actions, css({ mt: '1.5', alignItems: 'center' }))}>
            <span className={css({ textStyle: 'sm' })}>Delete this comment?</span>
            <Button
              size="xs"
              className={css({ colorPalette: 'red' })}
              onClick={() => thread.send({ type: 'delete.confirm' })}
            >
              Delete
            </Button>
            <Button
              size="xs"
              variant="ghost"
              onClick={() => thread.send({ type: 'delete.cancel' })}
            >
              Keep
            </Button>
          </div>
        ) : (
          !editing &&
          (own || mayDelete) &&
          props.mayWrite && (
            <div className={linkButtons}>
              {own && (
                <Button
                  size="xs"
                  variant="ghost"
                  disabled={view.action !== null}
                  onClick={() => thread.send({ type: 'edit.open', commentId: comment.id })}
                >
                  <Pencil /> Edit
                </Button>
              )}
              {mayDelete && (
                <Button
                  size="xs"
                  variant="ghost"
                  loading={view.action?.kind === 'delete' && view.action.id === comment.id}
                  disabled={view.action !== null}
                  onClick={() => thread.send({ type: 'delete', commentId: comment.id })}
                >
                  <Trash2 /> Delete
                </Button>
              )}
            </div>
          )
        )}
      </div>
    </div>
  )
}
