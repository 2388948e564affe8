import { Link } from '@tanstack/react-router'
import { CalendarClock } from 'lucide-react'
import { css, cx } from 'styled-system/css'
import { flex, grid } from 'styled-system/patterns'
import type { MyAssignment } from '../../../contract/collaboration.ts'
import { REVIEW_STATE_LABELS, type ReviewState } from '../../../contract/work.ts'
import { focusRing, pill } from '../../components/styles.ts'
import { formatCalendarDay } from '../../lib/format.ts'

/**
 * One question assigned to me (issue 29), as My work and the home page list it: its reference and
 * text, its questionnaire and customer, its review state and due date. It opens the question in
 * the workspace.
 */

const STATE_COLOURS: Record<ReviewState, string> = {
  unassigned: css({ bg: 'gray.a3', color: 'fg.muted' }),
  assigned: css({ bg: 'gray.a3', color: 'fg.default' }),
  answered: css({ bg: 'blue.a3', color: 'blue.text' }),
  ready: css({ bg: 'amber.a3', color: 'amber.text' }),
  changes_requested: css({ bg: 'red.a3', color: 'red.text' }),
  approved: css({ bg: 'green.a3', color: 'green.text' }),
}

const row = cx(
  grid({
    gridTemplateColumns: { base: '1fr', md: 'minmax(0, 1fr) auto' },
    alignItems: 'center',
    gap: { base: '2', md: '6' },
    px: { base: '3', md: '4' },
    py: '3',
    color: 'inherit',
    textDecoration: 'none',
    transition: 'background 120ms',
    _hover: { bg: 'gray.a2' },
  }),
  focusRing,
)
const question = css({ textStyle: 'sm', fontWeight: 'medium', lineClamp: 2, color: 'fg.default' })
const ref = css({
  fontFamily: 'mono',
  fontSize: 'xs',
  color: 'fg.muted',
  mr: '2',
  fontWeight: 'normal',
})
const where = css({ textStyle: 'xs', color: 'fg.muted', mt: '1', truncate: true })
const side = flex({ align: 'center', gap: '3', justify: { base: 'flex-start', md: 'flex-end' } })
const due = flex({
  align: 'center',
  gap: '1',
  textStyle: 'xs',
  color: 'fg.muted',
  whiteSpace: 'nowrap',
  fontVariantNumeric: 'tabular-nums',
  minW: { md: '28' },
  '&[data-overdue]': { color: 'fg.error', fontWeight: 'medium' },
})

export function AssignmentItem(props: {
  item: MyAssignment
  /** Listed under its questionnaire's heading (My work): the name is not said again. */
  underQuestionnaire?: boolean
}) {
  const { item } = props
  const overdue = item.group === 'overdue'
  return (
    <Link
      to="/questionnaire/$id"
      params={{ id: item.questionnaire_id }}
      search={{ question: item.question_id }}
      className={row}
      data-testid="my-work-item"
    >
      <span className={css({ minW: '0' })}>
        <span className={question}>
          {item.ref && <span className={ref}>{item.ref}</span>}
          {item.text}
        </span>
        {!props.underQuestionnaire && (
          <span className={cx(where, css({ display: 'block' }))}>
            {item.questionnaire}
            {item.customer ? ` · ${item.customer}` : ''}
          </span>
        )}
      </span>
      <span className={side}>
        <span className={cx(pill, STATE_COLOURS[item.state])}>
          {REVIEW_STATE_LABELS[item.state]}
        </span>
        <span className={due} data-overdue={overdue ? '' : undefined}>
          {item.due_date ? (
            <>
              <CalendarClock size={13} aria-hidden />
              {overdue ? 'Was due ' : 'Due '}
              {formatCalendarDay(item.due_date)}
            </>
          ) : (
            'No due date'
          )}
        </span>
      </span>
    </Link>
  )
}
