import { css } from 'styled-system/css'
import type { Questionnaire } from '../../../contract/questionnaires.ts'

const counts = css({
  maxW: '18rem',
  px: '2.5',
  py: '2',
  mb: '1',
  textStyle: 'xs',
  color: 'fg.muted',
  '& strong': { color: 'fg.default', fontWeight: 'semibold' },
})
const warning = css({
  maxW: '18rem',
  px: '2.5',
  py: '2',
  mb: '1',
  borderRadius: 'l2',
  bg: 'amber.a3',
  color: 'amber.text',
  textStyle: 'xs',
})

/**
 * What an export would write (issue 39), before the choice: how many answers are approved, how
 * many are drafts nobody reviewed, and how many cells stay empty.
 */
export function ExportCounts(props: { questionnaire: Questionnaire }) {
  const q = props.questionnaire
  const unreviewed = Math.max(0, q.answered - q.approved)
  const empty = Math.max(0, q.questions - q.answered)
  return (
    <>
      <p className={counts} data-testid="export-counts">
        Approved <strong>{q.approved.toLocaleString()}</strong> · Not reviewed{' '}
        <strong>{unreviewed.toLocaleString()}</strong> · Empty{' '}
        <strong>{empty.toLocaleString()}</strong>
      </p>
      {empty > 0 && (
        <p className={warning} data-testid="export-warning">
          {empty.toLocaleString()} of {q.questions.toLocaleString()} answers are empty: their cells
          stay blank in the file.
        </p>
      )}
    </>
  )
}

/**
 * The two ways of filling the customer's file, the organisation's default first: every answer
 * as drafted, or approved answers only (the others' cells left as the file had them).
 */
export function fillItems(approvedOnlyDefault: boolean) {
  const all = {
    value: 'original',
    label: 'Fill the original file',
    approvedOnly: false,
    isDefault: !approvedOnlyDefault,
  }
  const approved = {
    value: 'original-approved',
    label: 'Fill with approved answers only',
    approvedOnly: true,
    isDefault: approvedOnlyDefault,
  }
  return approvedOnlyDefault ? [approved, all] : [all, approved]
}
