import { Link } from '@tanstack/react-router'
import { ArrowRight } from 'lucide-react'
import { css, cx } from 'styled-system/css'
import { grid } from 'styled-system/patterns'
import type { Progress, TeamOverview } from '../../../contract/collaboration.ts'
import type { LibraryHealth } from '../../../contract/questionnaires.ts'
import { WORK_STATUS_LABELS } from '../../../contract/work.ts'
import { focusRing } from '../../components/styles.ts'
import { formatCalendarDay } from '../../lib/format.ts'
import { allLink, borderedList, sectionHeading } from './home-styles.ts'

/**
 * Home's view of the organisation (issue 30): four figures (in progress, waiting for review,
 * overdue, library health), then the questionnaires in progress with their progress and due dates.
 */

const tiles = grid({
  gridTemplateColumns: { base: 'repeat(2, 1fr)', lg: 'repeat(4, 1fr)' },
  gap: '3',
  mb: '8',
})
const tile = css({
  display: 'flex',
  flexDirection: 'column',
  gap: '1',
  p: '4',
  minW: '0',
  borderWidth: '1px',
  borderColor: 'border.subtle',
  borderRadius: 'xl',
  bg: 'bg.default',
  textDecoration: 'none',
  color: 'inherit',
  transition: 'border-color 120ms',
  _hover: { borderColor: 'colorPalette.a7' },
  '&[data-alert]': { borderColor: 'red.a6', bg: 'red.a2' },
})
const tileLabel = css({ textStyle: 'xs', fontWeight: 'medium', color: 'fg.muted' })
const tileValue = css({
  textStyle: '2xl',
  fontWeight: 'semibold',
  fontVariantNumeric: 'tabular-nums',
  lineHeight: '1.2',
  '[data-alert] &': { color: 'red.text' },
})
const tileNote = css({ textStyle: 'xs', color: 'fg.muted', overflowWrap: 'anywhere' })

const section = css({ mb: '8' })
const head = css({
  display: 'flex',
  justifyContent: 'space-between',
  alignItems: 'center',
  gap: '3',
  mb: '3',
  flexWrap: 'wrap',
})
const heading = sectionHeading
const list = borderedList
const row = css({
  display: 'grid',
  gridTemplateColumns: { base: '1fr', md: 'minmax(0, 1fr) 14rem' },
  gap: { base: '2', md: '6' },
  alignItems: 'center',
  px: '4',
  py: '3',
  textDecoration: 'none',
  color: 'inherit',
  _hover: { bg: 'bg.subtle' },
})
const name = css({ fontWeight: 'medium', textStyle: 'sm', truncate: true })
const meta = css({ textStyle: 'xs', color: 'fg.muted', mt: '0.5' })
const late = css({ color: 'fg.error', fontWeight: 'medium' })
const bar = css({
  h: '1.5',
  borderRadius: 'full',
  bg: 'gray.a3',
  overflow: 'hidden',
  display: 'flex',
})
const approvedPart = css({ bg: 'green.9' })
const draftedPart = css({ bg: 'colorPalette.7' })
const barNote = css({
  textStyle: 'xs',
  color: 'fg.muted',
  mt: '1',
  fontVariantNumeric: 'tabular-nums',
})

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

export function OverviewTiles(props: { overview: TeamOverview; library: LibraryHealth['counts'] }) {
  const { overview, library } = props
  const attention = library.stale + library.source_changed + library.conflicts
  const libraryNote = [
    library.stale && `${library.stale} stale`,
    library.due && `${library.due} due soon`,
    library.source_changed && `${library.source_changed} source changed`,
    library.conflicts && plural(library.conflicts, 'conflict'),
  ].filter(Boolean)
  return (
    <section className={tiles} aria-label="At a glance" data-testid="home-tiles">
      <Link to="/questionnaires" className={cx(tile, focusRing)}>
        <span className={tileLabel}>In progress</span>
        <span className={tileValue}>{overview.in_progress_count}</span>
        <span className={tileNote}>
          {overview.in_progress_count === 1 ? 'questionnaire' : 'questionnaires'} not yet sent
        </span>
      </Link>
      <Link to="/my-work" className={cx(tile, focusRing)}>
        <span className={tileLabel}>Awaiting review</span>
        <span className={tileValue}>{overview.review.drafts}</span>
        <span className={tileNote}>
          {overview.review.drafts === 1 ? 'drafted answer' : 'drafted answers'}
          {overview.review.ready > 0 ? `, ${overview.review.ready} marked ready` : ''}
        </span>
      </Link>
      <Link
        to="/questionnaires"
        className={cx(tile, focusRing)}
        data-alert={overview.overdue.length > 0 ? '' : undefined}
      >
        <span className={tileLabel}>Overdue</span>
        <span className={tileValue}>{overview.overdue.length}</span>
        <span className={tileNote}>
          {overview.overdue.length ? 'past their due date' : 'nothing past its due date'}
        </span>
      </Link>
      <Link
        to="/knowledge-base"
        className={cx(tile, focusRing)}
        data-alert={attention > 0 ? '' : undefined}
      >
        <span className={tileLabel}>Library health</span>
        <span className={tileValue}>{attention}</span>
        <span className={tileNote}>
          {libraryNote.length ? libraryNote.join(' · ') : 'every answer fresh and consistent'}
        </span>
      </Link>
    </section>
  )
}

function ProgressRow(props: { item: Progress }) {
  const { item } = props
  const percent = (n: number) => (item.questions ? (100 * n) / item.questions : 0)
  const drafted = Math.max(0, item.answered - item.approved)
  return (
    <Link to="/questionnaire/$id" params={{ id: item.id }} className={cx(row, focusRing)}>
      <div>
        <p className={name}>{item.name}</p>
        <p className={meta}>
          {WORK_STATUS_LABELS[item.work_status]}
          {item.customer ? ` · ${item.customer}` : ''}
          {item.owner ? ` · ${item.owner.name}` : ''}
          {item.due_date ? (
            <span className={item.overdue ? late : undefined}>
              {' · '}
              {item.overdue ? 'Overdue since' : 'Due'} {formatCalendarDay(item.due_date)}
            </span>
          ) : null}
        </p>
      </div>
      <div>
        <div
          className={bar}
          role="img"
          aria-label={`${item.approved} of ${item.questions} approved, ${drafted} drafted`}
        >
          <span className={approvedPart} style={{ width: `${percent(item.approved)}%` }} />
          <span className={draftedPart} style={{ width: `${percent(drafted)}%` }} />
        </div>
        <p className={barNote}>
          {item.approved} of {item.questions} approved
          {drafted ? ` · ${drafted} drafted` : ''}
        </p>
      </div>
    </Link>
  )
}

export function InProgress(props: { overview: TeamOverview }) {
  const { in_progress: items, in_progress_count: total } = props.overview
  if (!items.length) return null
  return (
    <section className={section} aria-labelledby="home-in-progress" data-testid="home-in-progress">
      <div className={head}>
        <h2 id="home-in-progress" className={heading}>
          Questionnaires in progress
        </h2>
        <Link to="/questionnaires" className={allLink}>
          {total > items.length ? `All ${total}` : 'All questionnaires'}
          <ArrowRight size={14} aria-hidden />
        </Link>
      </div>
      <ul className={list}>
        {items.map((item) => (
          <li key={item.id}>
            <ProgressRow item={item} />
          </li>
        ))}
      </ul>
    </section>
  )
}
