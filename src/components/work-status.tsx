import { css, cx } from 'styled-system/css'
import { WORK_STATUS_LABELS, type WorkStatus } from '../../contract/work.ts'
import { formatCalendarDay } from '../lib/format.ts'
import { pill } from './styles.ts'

/**
 * How a questionnaire's work shows wherever it is listed (issue 29): its status as a coloured
 * label, and its due date, in the danger colour with an "Overdue" label once it has passed.
 */

const STATUS_COLOURS: Record<WorkStatus, string> = {
  drafting: css({ colorPalette: 'gray' }),
  in_review: css({ colorPalette: 'amber' }),
  approved: css({ colorPalette: 'green' }),
  sent: css({ colorPalette: 'blue' }),
}
const tinted = css({ bg: 'colorPalette.a3', color: 'colorPalette.text' })
const overdueBadge = css({ colorPalette: 'red', bg: 'red.a3', color: 'red.text' })
const due = css({ display: 'inline-flex', flexWrap: 'wrap', alignItems: 'center', gap: '1.5' })
const dueText = css({ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' })
const late = css({ color: 'fg.error', fontWeight: 'medium' })

export function WorkStatusBadge(props: { status: WorkStatus; className?: string }) {
  return (
    <span className={cx(pill, tinted, STATUS_COLOURS[props.status], props.className)}>
      {WORK_STATUS_LABELS[props.status]}
    </span>
  )
}

/** The due date, or a dash; overdue, in red with its label. */
export function DueDate(props: { date: string | null; overdue: boolean; prefix?: string }) {
  if (!props.date) return <span className={css({ color: 'fg.subtle' })}>—</span>
  return (
    <span className={due} data-testid="due-date">
      <span className={cx(dueText, props.overdue && late)}>
        {props.prefix}
        {formatCalendarDay(props.date)}
      </span>
      {props.overdue && <span className={cx(pill, overdueBadge)}>Overdue</span>}
    </span>
  )
}
