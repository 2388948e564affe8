import { fireEvent, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fromPromise } from 'xstate'
import type { AnswerChange, QuestionRow } from '../../contract/questionnaires.ts'
import { type AnswerIdInput, answerMachine } from '../../machines/answer/index.ts'
import { showsReview } from '../../src/components/questionnaire/workspace-people.tsx'
import { changeOf, rowOf } from '../fixtures/answer-rows.ts'
import { renderAnswerPanel } from '../support/answer-panel.tsx'

describe('answer panel: a regeneration that found nothing new (issue 39)', () => {
  it('says so under the answer, rather than nothing', async () => {
    const row = rowOf(
      1,
      { text: 'Do you have a bug bounty?' },
      { text: 'Yes, with HackerOne.', choice: 'Yes', status: 'generated', confidence: 0.7 },
    )
    const logic = answerMachine.provide({
      actors: {
        regenerateAnswer: fromPromise<AnswerChange, AnswerIdInput>(async () => ({
          ...changeOf([row]),
          notice: 'No new evidence since the last draft',
        })),
      },
    })
    const panel = renderAnswerPanel(row, logic)
    fireEvent.click(within(panel).getByRole('button', { name: /^Regenerate$/ }))
    expect((await within(panel).findByTestId('answer-notice')).textContent).toBe(
      'No new evidence since the last draft',
    )
  })
})

describe('one status vocabulary (issue 39)', () => {
  it('shows a review state beside the answer’s status only where it says more than it', () => {
    const approved = rowOf(
      2,
      { text: 'Do you rotate keys?' },
      { text: 'Yearly.', choice: 'Yes', status: 'approved', confidence: null },
    )
    const ann = { id: '4', name: 'Ann Lee', email: 'ann@example.com' }
    const withState = (review_state: QuestionRow['assignment']['review_state']) => ({
      ...approved,
      assignment: { assignee: ann, due_date: null, review_state, comments: 0 },
    })
    // 'Approved' is the answer's status already: never said twice
    expect(showsReview(withState('approved'))).toBe(false)
    expect(showsReview(withState('ready'))).toBe(true)
    expect(showsReview(withState('assigned'))).toBe(true)
    expect(showsReview({ ...approved })).toBe(false)
  })
})
