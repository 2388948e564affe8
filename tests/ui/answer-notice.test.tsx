import { fireEvent, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fromPromise } from 'xstate'
import type { AnswerChange } from '../../contract/questionnaires.ts'
import { type AnswerIdInput, answerMachine } from '../../machines/answer/index.ts'
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
