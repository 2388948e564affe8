import { within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { Answer } from '../../contract/questionnaires.ts'
import { rowOf } from '../fixtures/answer-rows.ts'
import { renderAnswerPanel } from '../support/answer-panel.tsx'

const SCANNING = 'We perform vulnerability scanning of all production systems every week.'
const ASSURANCE = 'Medium: answers like this one are right about 58 % of the time.'

/** The answer panel of one question whose answer is `answer`. */
const renderPanel = (answer: Partial<Answer>) =>
  renderAnswerPanel(rowOf(1, { text: 'Is vulnerability scanning automated?' }, answer))

const generated: Partial<Answer> = {
  text: SCANNING,
  choice: 'Yes',
  status: 'generated',
  confidence: 0.58,
  band: 'medium',
  drawn_from: 'document',
  citations: [
    { source: 'file', kind: 'document', id: 4, title: 'Scanning.txt', snippet: SCANNING },
  ],
}

describe('answer panel: the reviewer sees why', () => {
  it('lists what the question asks, each part stated by its sentence or not stated, and what the band means', () => {
    const panel = renderPanel({
      ...generated,
      assurance: ASSURANCE,
      parts: [
        { label: 'vulnerability scanning', kind: 'practice', sentence: SCANNING },
        { label: 'weekly', kind: 'frequency', sentence: SCANNING },
        { label: 'automated', kind: 'qualifier', sentence: null },
      ],
    })
    expect(within(panel).getByTestId('answer-assurance').textContent).toBe(ASSURANCE)
    const list = within(panel).getByRole('list', { name: 'What the question asks' })
    const [practice, frequency, qualifier] = within(list).getAllByRole('listitem') as HTMLElement[]
    expect(practice?.dataset.kind).toBe('practice')
    expect(within(practice as HTMLElement).getByText('vulnerability scanning')).toBeTruthy()
    expect(within(practice as HTMLElement).getByText('Stated')).toBeTruthy()
    // the sentence is quoted, its full text in the title when three lines cut it
    const quote = within(practice as HTMLElement).getByText(SCANNING)
    expect(quote.getAttribute('title')).toBe(SCANNING)
    // the same sentence stating the next part is pointed at, not quoted again
    expect(within(frequency as HTMLElement).getByText('Stated')).toBeTruthy()
    expect(within(frequency as HTMLElement).queryByText(SCANNING)).toBeNull()
    expect(within(frequency as HTMLElement).getByTitle(SCANNING).textContent).toBe(
      'By the sentence above',
    )
    expect(qualifier?.dataset.kind).toBe('qualifier')
    expect(within(qualifier as HTMLElement).getByText('automated')).toBeTruthy()
    expect(within(qualifier as HTMLElement).getByText('Not stated')).toBeTruthy()
    expect(within(qualifier as HTMLElement).queryByText('Stated')).toBeNull()
    expect(within(qualifier as HTMLElement).queryByTitle(/./)).toBeNull()
  })

  it('shows no parts for an answer that carries none (a library answer, a written one)', () => {
    const panel = renderPanel({ ...generated, drawn_from: 'library', assurance: ASSURANCE })
    expect(within(panel).getByTestId('answer-assurance').textContent).toBe(ASSURANCE)
    expect(within(panel).queryByText('What the question asks')).toBeNull()
    expect(within(panel).queryByRole('list', { name: 'What the question asks' })).toBeNull()
  })

  it('says nothing of what a band means when the answer has no assurance', () => {
    const panel = renderPanel({ text: 'We do.', status: 'edited', confidence: 1, band: 'high' })
    expect(within(panel).queryByTestId('answer-assurance')).toBeNull()
    expect(within(panel).queryByText('What the question asks')).toBeNull()
  })
})
