import { Check, CircleAlert } from 'lucide-react'
import { css, cx } from 'styled-system/css'
import { FRESHNESS_LABELS, type Freshness } from '../../../contract/freshness.ts'
import {
  ANSWER_STATUS_LABELS,
  type Answer,
  type AnswerStatus,
} from '../../../contract/questionnaires.ts'
import { REVIEW_STATE_LABELS, type ReviewState } from '../../../contract/work.ts'
import { pill } from '../styles.ts'

const badge = cx(pill, css({ gap: '1', bg: 'colorPalette.a3', color: 'colorPalette.text' }))

// palettes as whole class names: Panda extracts only literal styles
const GRAY = css({ colorPalette: 'gray' })
const BLUE = css({ colorPalette: 'blue' })
const AMBER = css({ colorPalette: 'amber' })
const GREEN = css({ colorPalette: 'green' })
const RED = css({ colorPalette: 'red' })
const STATUS_PALETTE: Record<AnswerStatus, string> = {
  pending: GRAY,
  generating: BLUE,
  generated: BLUE,
  edited: AMBER,
  approved: GREEN,
  no_answer: GRAY,
  failed: RED,
  existing: AMBER,
}

// a stale answer stands out: a solid badge; one falling due is amber, a fresh one green
const FRESHNESS_BADGE: Record<Freshness, string> = {
  fresh: cx(badge, GREEN),
  due: cx(badge, AMBER),
  stale: cx(pill, css({ gap: '1', bg: 'red.9', color: 'white' })),
}

/** How old a library answer is against its review cycle: Fresh, Review due or Stale. */
export function FreshnessBadge(props: { freshness: Freshness; title?: string }) {
  return (
    <span
      className={FRESHNESS_BADGE[props.freshness]}
      data-freshness={props.freshness}
      title={props.title}
    >
      {props.freshness !== 'fresh' && <CircleAlert size={12} aria-hidden />}
      {FRESHNESS_LABELS[props.freshness]}
    </span>
  )
}

export function StatusBadge(props: { status: AnswerStatus }) {
  return (
    <span className={cx(badge, STATUS_PALETTE[props.status])} data-status={props.status}>
      {ANSWER_STATUS_LABELS[props.status]}
    </span>
  )
}

const BAND_PALETTE = { high: GREEN, medium: AMBER, low: RED } as const
const BAND_LABEL = { high: 'High', medium: 'Medium', low: 'Low' } as const

/** The confidence band with its figure; nothing for answers without a confidence. */
export function ConfidenceBadge(props: { answer: Pick<Answer, 'band' | 'confidence'> }) {
  const { band, confidence } = props.answer
  if (!band || confidence === null) return null
  return (
    <span
      className={cx(badge, BAND_PALETTE[band])}
      title={`Confidence ${Math.round(confidence * 100)}%`}
    >
      {BAND_LABEL[band]} confidence · {Math.round(confidence * 100)}%
    </span>
  )
}

/** Whether a cited sentence states one part of what the question asks. */
export function StatedBadge(props: { stated: boolean }) {
  return props.stated ? (
    <span className={cx(badge, GREEN)}>
      <Check size={12} aria-hidden /> Stated
    </span>
  ) : (
    <span className={cx(badge, AMBER)}>
      <CircleAlert size={12} aria-hidden /> Not stated
    </span>
  )
}

const REVIEW_PALETTE: Record<ReviewState, string> = {
  unassigned: GRAY,
  assigned: BLUE,
  answered: AMBER,
  ready: BLUE,
  changes_requested: RED,
  approved: GREEN,
}

/** Where a question's review stands (issue 29): assigned, ready for review, changes requested… */
export function ReviewStateBadge(props: { state: ReviewState }) {
  return (
    <span className={cx(badge, REVIEW_PALETTE[props.state])} data-review-state={props.state}>
      {REVIEW_STATE_LABELS[props.state]}
    </span>
  )
}
