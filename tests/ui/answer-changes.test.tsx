import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fromPromise } from 'xstate'
import type { Answer, AnswerChange, QuestionRow } from '../../contract/questionnaires.ts'
import { type AnswerIdInput, answerMachine } from '../../machines/answer/index.ts'
import { AnswerGrid } from '../../src/components/questionnaire/answer-grid.tsx'
import { changeOf, rowOf } from '../fixtures/answer-rows.ts'
import { renderAnswerPanel, stubLayout } from '../support/answer-panel.tsx'

stubLayout()

const BEFORE = 'Data at rest is encrypted with AES-256.'
const AFTER = 'Data at rest is encrypted.'

/** The answer panel of `row`; confirming a source answers with the row unflagged. */
function renderPanel(row: QuestionRow) {
  const confirmed: AnswerIdInput[] = []
  const regenerated: AnswerIdInput[] = []
  const cleared = { ...row, answer: { ...row.answer, flags: [], source_change: undefined } }
  const logic = answerMachine.provide({
    actors: {
      confirmSource: fromPromise<AnswerChange, AnswerIdInput>(async ({ input }) => {
        confirmed.push(input)
        return changeOf([{ ...cleared, answer: { ...cleared.answer, updated_at: 'later' } }])
      }),
      regenerateAnswer: fromPromise<AnswerChange, AnswerIdInput>(async ({ input }) => {
        regenerated.push(input)
        return new Promise(() => {})
      }),
    },
  })
  const panel = renderAnswerPanel(row, logic)
  return { panel, confirmed, regenerated }
}

const sourceChanged: Partial<Answer> = {
  text: 'Yes. Data at rest is encrypted with AES-256.',
  choice: 'Yes',
  status: 'generated',
  confidence: 0.62,
  band: 'medium',
  drawn_from: 'document',
  flags: ['source_changed'],
  note: 'Encryption policy.txt no longer says what this answer quotes: confirm it or regenerate it.',
  source_change: {
    file_id: 4,
    title: 'Encryption policy.txt',
    version: 2,
    before: BEFORE,
    after: AFTER,
    flagged_at: '2026-11-25T10:00:00.000Z',
  },
}

describe('answer panel: what changed around an answer', () => {
  it('shows a changed source’s passages then and now, and clears the flag once confirmed', async () => {
    const { panel, confirmed } = renderPanel(rowOf(1, {}, sourceChanged))
    const flags = within(panel).getByRole('list', { name: 'What changed' })
    expect(within(flags).getByText('Source changed').closest('[data-flag]')).toBeTruthy()
    const change = within(panel).getByRole('region', { name: 'Source changed' })
    expect(within(change).getByTestId('passage-before').textContent).toBe(`Quoted then${BEFORE}`)
    expect(within(change).getByTestId('passage-after').textContent).toBe(`Now (version 2)${AFTER}`)
    expect(within(panel).getByTestId('answer-reason').textContent).toContain('no longer says')
    fireEvent.click(within(change).getByRole('button', { name: 'Confirm it still holds' }))
    await waitFor(() =>
      expect(within(panel).queryByRole('region', { name: 'Source changed' })).toBeNull(),
    )
    expect(confirmed).toEqual([{ answerId: 10 }])
    expect(within(panel).queryByRole('list', { name: 'What changed' })).toBeNull()
  })

  it('regenerates a changed-source answer from its passages, and says when the file was deleted', () => {
    const deleted = {
      ...sourceChanged,
      source_change: {
        ...(sourceChanged.source_change as NonNullable<Answer['source_change']>),
        version: null,
        after: null,
      },
    }
    const { panel, regenerated } = renderPanel(rowOf(1, {}, deleted))
    const change = within(panel).getByRole('region', { name: 'Source changed' })
    expect(change.textContent).toContain('Encryption policy.txt was deleted')
    expect(within(change).getByTestId('passage-after').textContent).toBe(
      'NowNothing like it is left.',
    )
    fireEvent.click(within(change).getByRole('button', { name: 'Regenerate' }))
    expect(regenerated).toEqual([{ answerId: 10, evidence: undefined, fileIds: undefined }])
  })

  it('says a library answer’s age and owner with its freshness, a stale one standing out', () => {
    const { panel } = renderPanel(
      rowOf(
        1,
        {},
        {
          text: 'Yes',
          choice: 'Yes',
          status: 'generated',
          drawn_from: 'library',
          freshness: 'stale',
          flags: ['conflict'],
          library_entry: {
            source: 'qa',
            id: 3,
            reviewed_at: '2025-06-01T00:00:00.000Z',
            age_days: 542,
            owner: { id: '9', name: 'Grace Hopper', email: 'grace@example.com' },
          },
        },
      ),
    )
    const entry = within(panel).getByTestId('library-entry')
    expect(entry.textContent).toBe(
      'From your library· reviewed 542 days ago· owner Grace HopperStale',
    )
    expect(entry.querySelector('[data-freshness="stale"]')).toBeTruthy()
    expect(within(panel).getByText('Library disagrees')).toBeTruthy()
  })

  it('marks the words of a reworded question against the words asked before', () => {
    const { panel } = renderPanel(
      rowOf(
        1,
        {
          text: 'Do you encrypt customer data at rest?',
          carried_from: {
            questionnaire_id: 3,
            questionnaire_name: 'Vendor assessment 2025.xlsx',
            question_id: 31,
            kind: 'changed',
            previous_text: 'Do you encrypt data at rest?',
          },
        },
        { flags: ['question_changed'] },
      ),
    )
    const change = within(panel).getByRole('region', { name: 'Question changed' })
    expect(change.textContent).toContain('Reworded since Vendor assessment 2025.xlsx')
    const diff = within(change).getByTestId('question-diff')
    expect([...diff.querySelectorAll('ins')].map((node) => node.textContent)).toEqual(['customer'])
    expect(diff.querySelectorAll('del')).toHaveLength(0)
    expect(
      within(panel).getByText('Question changed', { selector: '[data-flag] *, [data-flag]' }),
    ).toBeTruthy()
  })

  it('marks flagged answers in the grid', () => {
    render(
      <AnswerGrid
        rows={[rowOf(1, {}, sourceChanged), rowOf(2, {}, { flags: ['carried_forward'] }), rowOf(3)]}
        focusedId={null}
        onFocus={() => {}}
        onKey={() => {}}
        label="Questions"
      />,
    )
    const markers = screen.getAllByTestId('row-flag')
    expect(markers.map((marker) => marker.getAttribute('aria-label'))).toEqual([
      'Source changed',
      'Carried forward',
    ])
    expect(markers[0]?.hasAttribute('data-source-changed')).toBe(true)
  })
})
