import { useActorRef } from '@xstate/react'
import { CheckCheck, MessageSquareWarning, UserPlus } from 'lucide-react'
import { css } from 'styled-system/css'
import { textarea } from 'styled-system/recipes'
import { holdsAnswer } from '../../../contract/answers.ts'
import type { AnswerChange, QuestionRow } from '../../../contract/questionnaires.ts'
import {
  type questionReviewMachine,
  questionReviewView,
} from '../../../machines/question-review/index.ts'
import { useEmitted } from '../../app/use-emitted.ts'
import { useView } from '../../app/use-view.ts'
import { formatCalendarDay } from '../../lib/format.ts'
import { Button } from '../ui/button.tsx'
import { actions, hint, meta, sectionTitle } from './answer-styles.ts'
import { ReviewStateBadge } from './badges.tsx'
import { showsReview } from './workspace-people.tsx'

/**
 * A question's assignment and review (issue 29): who it is assigned to and by when, its review
 * state, and the steps: assign, mark ready for review, request changes (approvers).
 */
export function AnswerReview(props: {
  row: QuestionRow
  logic: typeof questionReviewMachine
  mayWrite: boolean
  mayApprove: boolean
  onAssign: () => void
  onChange: (change: AnswerChange) => void
}) {
  const { row, onChange } = props
  const review = useActorRef(props.logic, { input: { questionId: row.id } })
  const view = useView(review, questionReviewView)
  useEmitted(() => [review.on('changed', (event) => onChange(event.change))], [review, onChange])
  const { assignment, answer } = row
  const answered = holdsAnswer(answer)
  const state = assignment.review_state
  return (
    <section className={css({ display: 'grid', gap: '2' })} aria-label="Assignment">
      <h3 className={sectionTitle}>Assignment</h3>
      <div className={meta}>
        {showsReview(row) && <ReviewStateBadge state={state} />}
        <span data-testid="assignee">
          {assignment.assignee ? `Assigned to ${assignment.assignee.name}` : 'Not assigned'}
        </span>
        {assignment.due_date && <span>· due {formatCalendarDay(assignment.due_date)}</span>}
      </div>
      {view.requesting ? (
        <form
          className={css({ display: 'grid', gap: '2' })}
          onSubmit={(event) => {
            event.preventDefault()
            review.send({ type: 'changes.submit' })
          }}
        >
          <label className={css({ textStyle: 'sm', fontWeight: 'medium' })}>
            What should change?
            <textarea
              className={textarea({ size: 'sm' })}
              rows={3}
              value={view.comment}
              onChange={(event) =>
                review.send({ type: 'comment.change', comment: event.target.value })
              }
            />
          </label>
          <div className={actions}>
            <Button size="sm" type="submit" loading={view.sending}>
              Send back
            </Button>
            <Button size="sm" variant="ghost" onClick={() => review.send({ type: 'cancel' })}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <div className={actions}>
          {props.mayWrite && (
            <Button size="xs" variant="outline" onClick={props.onAssign}>
              <UserPlus /> {assignment.assignee ? 'Reassign' : 'Assign'}
            </Button>
          )}
          {props.mayWrite && answered && state !== 'ready' && state !== 'approved' && (
            <Button
              size="xs"
              variant="outline"
              loading={view.marking}
              onClick={() => review.send({ type: 'ready' })}
            >
              <CheckCheck /> Mark ready for review
            </Button>
          )}
          {props.mayApprove && answered && state !== 'approved' && (
            <Button
              size="xs"
              variant="outline"
              onClick={() => review.send({ type: 'changes.open' })}
            >
              <MessageSquareWarning /> Request changes
            </Button>
          )}
        </div>
      )}
      {view.error && (
        <p className={css({ color: 'fg.error', textStyle: 'sm' })} role="alert">
          {view.error}
        </p>
      )}
      {state === 'ready' && props.mayApprove && (
        <p className={hint}>Ready for your review: approve the answer, or request changes.</p>
      )}
    </section>
  )
}
