import { Link } from '@tanstack/react-router'
import { Building2, MessageSquare, WifiOff } from 'lucide-react'
import { css, cx } from 'styled-system/css'
import { flex } from 'styled-system/patterns'
import type { UserRef } from '../../../contract/knowledge.ts'
import type { Questionnaire, QuestionRow } from '../../../contract/questionnaires.ts'
import { STREAM_TEXTS } from '../../../contract/streams.ts'
import { WORK_STATUS_LABELS } from '../../../contract/work.ts'
import { formatCalendarDay } from '../../lib/format.ts'
import { InitialsAvatar } from '../ui/avatar.tsx'
import { ReviewStateBadge } from './badges.tsx'

const stackClass = flex({ align: 'center', mt: '2', gap: '2', textStyle: 'xs', color: 'fg.muted' })
const faces = flex({ '& > *:not(:first-child)': { ms: '-2' } })
const face = css({ borderWidth: '2px', borderColor: 'bg.default' })
const metaItem = css({ '& strong': { color: 'fg.default', fontWeight: 'semibold' } })
const overdue = css({ color: 'fg.error', fontWeight: 'semibold' })

/** Who else has the questionnaire open (issue 29): their initials, the signed-in person included. */
export function Viewers(props: { viewers: UserRef[] }) {
  if (props.viewers.length < 2) return null
  const names = props.viewers.map((viewer) => viewer.name).join(', ')
  return (
    <section className={stackClass} data-testid="viewers" aria-label={`Viewing now: ${names}`}>
      <div className={faces}>
        {props.viewers.slice(0, 5).map((viewer) => (
          <InitialsAvatar key={viewer.id} name={viewer.name} size="xs" className={face} />
        ))}
      </div>
      <span>{props.viewers.length > 5 ? `${props.viewers.length} people` : names} viewing now</span>
    </section>
  )
}

/** Live updates are paused: too many streams are open for this person (issue 37). */
export function LivePaused() {
  return (
    <p className={stackClass} role="status" data-testid="live-paused">
      <WifiOff size={14} aria-hidden />
      {STREAM_TEXTS.paused}
    </p>
  )
}

/** The work around the questionnaire: its status, customer, owner and due date (issue 29). */
const customerLine = flex({
  align: 'center',
  gap: '1.5',
  textStyle: 'sm',
  fontWeight: 'medium',
  color: 'fg.muted',
  mb: '0.5',
  '& a': { color: 'fg.default', textDecoration: 'underline', textUnderlineOffset: '2px' },
})

/** Above the questionnaire's name (issue 39): whom it is for, the first thing a reviewer asks. */
export function CustomerLine(props: { questionnaire: Questionnaire }) {
  const q = props.questionnaire
  if (!q.customer && !q.requester) return null
  return (
    <p className={customerLine} data-testid="customer-line">
      <Building2 size={14} aria-hidden />
      {q.customer && (
        <Link to="/customers/$id" params={{ id: q.customer.id }}>
          {q.customer.name}
        </Link>
      )}
      {q.requester && (
        <span>{q.customer ? `· asked by ${q.requester}` : `Asked by ${q.requester}`}</span>
      )}
    </p>
  )
}

export function WorkMeta(props: { questionnaire: Questionnaire }) {
  const q = props.questionnaire
  return (
    <>
      <span className={metaItem} data-testid="work-status">
        <strong>{WORK_STATUS_LABELS[q.work_status]}</strong>
      </span>
      {q.owner && <span className={metaItem}>owned by {q.owner.name}</span>}
      {q.due_date && (
        <span className={cx(metaItem, q.overdue && overdue)} data-testid="due-date">
          {q.overdue ? 'Overdue: ' : 'Due '}
          {formatCalendarDay(q.due_date)}
        </span>
      )}
    </>
  )
}

const rowWork = flex({ align: 'center', gap: '1.5', textStyle: 'xs', color: 'fg.muted' })

/** A row's assignee, review state (once assigned) and open comment threads (issue 29). */
export function RowWork(props: { row: QuestionRow }) {
  const { assignee, review_state: state, comments } = props.row.assignment
  const reviewed = showsReview(props.row)
  if (!assignee && !reviewed && !comments) return null
  return (
    <span className={rowWork} data-testid="row-work">
      {reviewed && <ReviewStateBadge state={state} />}
      {assignee && <InitialsAvatar name={assignee.name} size="xs" />}
      {comments > 0 && (
        <span title={`${comments} open comment thread${comments === 1 ? '' : 's'}`}>
          <MessageSquare size={12} aria-hidden /> {comments}
        </span>
      )}
    </span>
  )
}

/**
 * Whether a question's review state says more than its answer's status: it is assigned, or in
 * review. An approved question says so once, with the answer's status (issue 39: one status
 * vocabulary, never 'Approved' twice).
 */
export const showsReview = (row: QuestionRow) =>
  row.assignment.review_state !== 'approved' &&
  (row.assignment.assignee !== null || row.assignment.review_state !== 'unassigned')
