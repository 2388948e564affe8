import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { CARRIED, previousMatchOf, rowOf } from '../fixtures/answer-rows.ts'
import { ada, commentOf } from '../fixtures/comments.ts'
import { productOf } from '../fixtures/products.ts'
import { stubLayout } from '../support/answer-panel.tsx'
import { chooseOption } from '../support/choose-option.ts'
import { data, pageLogic as logic, renderPage } from '../support/questionnaire-page.tsx'

stubLayout()

describe('questionnaire page: answers, sources, carry-forward, comments and products', () => {
  it('says what a Yes from a document rests on until a person edits or approves it', async () => {
    const reason =
      'Yes because a document states this practice. No answer of yours covers this question itself: check the quote before approving.'
    const stated = rowOf(
      1,
      {},
      {
        text: 'Backups are restored in a test every quarter.',
        choice: 'Yes',
        status: 'generated',
        confidence: 0.45,
        band: 'low',
        note: reason,
      },
    )
    const edited = { ...stated, answer: { ...stated.answer, status: 'edited' as const } }
    for (const [row, shown] of [
      [stated, true],
      [edited, false],
    ] as const) {
      const view = renderPage(logic({ data: { ...data, rows: [row, ...data.rows.slice(1)] } }))
      const grid = await screen.findByRole('listbox', { name: 'Questions of Security' })
      fireEvent.click(within(grid).getByText('Do you meet security requirement 1?'))
      const panel = screen.getByRole('region', { name: 'Answer' })
      expect(within(panel).getByTestId('answer-text').textContent).toBe(
        'Backups are restored in a test every quarter.',
      )
      expect(within(panel).queryByTestId('answer-reason')?.textContent ?? null).toBe(
        shown ? reason : null,
      )
      view.unmount()
    }
  })

  it('says where each generated answer came from, and what each source is', async () => {
    const cases = [
      {
        drawn_from: 'library' as const,
        citation: {
          source: 'qa' as const,
          kind: 'library' as const,
          id: 3,
          title: 'Q&A',
          snippet: 'Do you encrypt backups? — Yes',
        },
        label: 'From your library: an answer to this question',
        kind: 'Library answer',
      },
      {
        drawn_from: 'transferred' as const,
        citation: {
          source: 'file' as const,
          kind: 'library' as const,
          id: 4,
          title: 'HECVAT.xlsx',
          snippet: 'Do you have a key management policy? — Yes',
        },
        label: 'From your library: an answer about the same practice, asked in other words',
        kind: 'Library answer',
      },
      {
        drawn_from: 'document' as const,
        citation: {
          source: 'file' as const,
          kind: 'document' as const,
          id: 5,
          title: 'Security Overview.pdf',
          snippet: 'All data is stored on AES-256 encrypted volumes.',
          location: { page: 4 },
        },
        label: 'From a document: the quoted passage',
        kind: 'Document',
      },
    ]
    for (const item of cases) {
      const row = rowOf(
        1,
        {},
        {
          text: 'Encrypted.',
          choice: 'Yes',
          status: 'generated',
          confidence: 0.7,
          band: 'medium',
          citations: [item.citation],
          drawn_from: item.drawn_from,
        },
      )
      const view = renderPage(logic({ data: { ...data, rows: [row, ...data.rows.slice(1)] } }))
      const grid = await screen.findByRole('listbox', { name: 'Questions of Security' })
      fireEvent.click(within(grid).getByText('Do you meet security requirement 1?'))
      const panel = screen.getByRole('region', { name: 'Answer' })
      expect(within(panel).getByTestId('answer-origin').textContent).toBe(item.label)
      expect(within(panel).getByTestId('source-kind').textContent).toBe(item.kind)
      // the quoted evidence is shown with it
      expect(within(panel).getByText(item.citation.snippet)).toBeTruthy()
      view.unmount()
    }
    // an answer a person wrote says who wrote it, and nothing of a source or a band
    const written = rowOf(
      1,
      {},
      {
        text: 'We do.',
        status: 'edited',
        confidence: null,
        band: null,
        origin: 'person',
        updated_by: { id: '7', name: 'Ann Lee', email: 'ann@example.com' },
      },
    )
    const view = renderPage(logic({ data: { ...data, rows: [written, ...data.rows.slice(1)] } }))
    const grid = await screen.findByRole('listbox', { name: 'Questions of Security' })
    fireEvent.click(within(grid).getByText('Do you meet security requirement 1?'))
    const panel = within(screen.getByRole('region', { name: 'Answer' }))
    expect(panel.getByTestId('answer-origin').textContent).toBe('Written by Ann Lee')
    expect(panel.queryByText(/confidence ·/)).toBeNull()
    view.unmount()
  })

  it('shows a question whose records disagree with the reason, and uses the candidate chosen', async () => {
    const note =
      'Your records disagree: of 3 that answer this question, 2 answer Yes, 1 answer No. Choose the candidate that is true for this questionnaire, or write the answer.'
    const source = (title: string) => ({ source: 'file' as const, id: 5, title, snippet: title })
    const split = rowOf(1, {}, { status: 'no_answer', confidence: 0, note })
    split.candidates = [
      split.answer,
      {
        ...split.answer,
        id: 11,
        rank: 1,
        status: 'generated',
        choice: 'Yes',
        text: '',
        confidence: 0.55,
        band: 'medium',
        note: null,
        citations: [source('Product A.xlsx')],
      },
      {
        ...split.answer,
        id: 12,
        rank: 2,
        status: 'generated',
        choice: 'No',
        text: 'Only local accounts.',
        confidence: 0.4,
        band: 'low',
        note: null,
        citations: [source('Product B.xlsx')],
      },
    ]
    const setup = logic({ data: { ...data, rows: [split, ...data.rows.slice(1)] } })
    renderPage(setup)
    const grid = await screen.findByRole('listbox', { name: 'Questions of Security' })
    const option = within(grid).getAllByRole('option')[0] as HTMLElement
    expect(option.textContent).toContain('Your records disagree')
    expect(option.textContent).toContain('2 to choose from')
    fireEvent.click(within(option).getByText('Do you meet security requirement 1?'))
    const panel = screen.getByRole('region', { name: 'Answer' })
    expect(within(panel).getByTestId('answer-text').textContent).toBe(note)
    expect(within(panel).getByText('Only local accounts.')).toBeTruthy()
    // nothing to approve until a side is taken or the answer written
    expect(
      (within(panel).getByRole('button', { name: 'Approve' }) as HTMLButtonElement).disabled,
    ).toBe(true)
    const uses = within(panel).getAllByRole('button', { name: 'Use this' })
    expect(uses).toHaveLength(2)
    fireEvent.click(uses[1] as HTMLElement)
    await waitFor(() => expect(setup.operations).toHaveLength(1))
    expect(setup.operations[0]).toMatchObject({ kind: 'select', questionId: 1, answerId: 12 })
  })

  it('offers to start from a questionnaire answered before, then shows what was carried and reads the answers again', async () => {
    const previous = previousMatchOf()
    const setup = logic({ previous: [previous], carried: CARRIED })
    renderPage(setup)
    const offer = await screen.findByRole('region', { name: 'Answered before' })
    expect(offer.textContent).toMatch(
      /^This looks like Vendor assessment 2025\.xlsx, answered .*2025: 35 of 40 questions are the same\. Start from it\?/,
    )
    expect(setup.loads()).toBe(1)
    fireEvent.click(within(offer).getByRole('button', { name: 'Start from it' }))
    const result = await screen.findByRole('status', {
      name: 'Started from an earlier questionnaire',
    })
    expect(setup.carriedFrom).toEqual([3])
    expect(
      within(within(result).getByRole('list', { name: 'What was carried forward' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      '33 answers carried forward',
      '5 questions changed',
      '0 new questions',
      '1 question removed',
    ])
    expect(within(result).getByRole('list', { name: 'Removed questions' }).textContent).toBe(
      'SEC-41 Do you still use fax?',
    )
    // the workspace reads the carried answers
    await waitFor(() => expect(setup.loads()).toBe(2))
    fireEvent.click(within(result).getByRole('button', { name: 'Close' }))
    expect(
      screen.queryByRole('status', { name: 'Started from an earlier questionnaire' }),
    ).toBeNull()
  })

  it('offers nothing for a questionnaire of another template, or one already carried forward', async () => {
    const other = previousMatchOf({
      name: 'Other.xlsx',
      score: 0.2,
      same_template: false,
      identical: 2,
      changed: 0,
      new: 38,
      removed: 20,
    })
    const first = renderPage(logic({ previous: [other] }))
    await screen.findByRole('listbox', { name: 'Questions of Security' })
    await new Promise((r) => setTimeout(r, 0))
    expect(screen.queryByRole('region', { name: 'Answered before' })).toBeNull()
    first.unmount()
    const carried = rowOf(1, {
      carried_from: {
        questionnaire_id: 3,
        questionnaire_name: 'Other.xlsx',
        question_id: 31,
        kind: 'carried',
        previous_text: 'Do you meet security requirement 1?',
      },
    })
    const setup = logic({
      previous: [{ ...other, same_template: true, score: 0.9 }],
      data: { ...data, rows: [carried, ...data.rows.slice(1)] },
    })
    renderPage(setup)
    await screen.findByRole('listbox', { name: 'Questions of Security' })
    await new Promise((r) => setTimeout(r, 0))
    expect(screen.queryByRole('region', { name: 'Answered before' })).toBeNull()
  })

  it('shows a comment’s text as plain text with its mentions, and counts a new thread on the row', async () => {
    const markup = '<b>not bold</b> @Ada Lovelace <img src=x onerror=alert(1)>'
    const setup = logic({
      comments: [
        commentOf(1, { body: markup, mentions: [ada], edited_at: new Date().toISOString() }),
        commentOf(2, { parent_id: 1, body: '', deleted: true }),
      ],
    })
    renderPage(setup)
    const grid = await screen.findByRole('listbox', { name: 'Questions of Security' })
    fireEvent.click(within(grid).getByText('Do you meet security requirement 1?'))
    const comments = screen.getByRole('region', { name: 'Comments' })
    const body = await within(comments).findByTestId('comment-body')
    expect(body.textContent).toBe(markup)
    expect(body.querySelector('b, img')).toBeNull()
    expect(within(body).getByText('@Ada Lovelace').tagName).toBe('SPAN')
    expect(within(comments).getByText('Comment deleted')).toBeTruthy()
    expect(within(comments).getByText('· edited')).toBeTruthy()

    // "@gr" offers Grace; Enter writes her name and she is mentioned
    const box = within(comments).getByRole('combobox', { name: 'New comment' })
    fireEvent.change(box, { target: { value: 'Over to @gr' } })
    const suggestions = within(comments).getByRole('listbox', { name: 'People to mention' })
    expect(
      within(suggestions)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Grace Hoppergrace@example.com'])
    fireEvent.keyDown(box, { key: 'Enter' })
    expect((box as HTMLTextAreaElement).value).toBe('Over to @Grace Hopper ')
    fireEvent.click(within(comments).getByRole('button', { name: 'Comment' }))
    await waitFor(() => expect(within(comments).getAllByTestId('comment-thread')).toHaveLength(2))
    expect(setup.commented).toEqual([
      {
        kind: 'create',
        questionId: 1,
        request: { body: 'Over to @Grace Hopper', mentions: [6] },
      },
    ])
    expect(within(grid).getByTitle('2 open comment threads')).toBeTruthy()
  })

  it('shows the questionnaire’s product in the header and changes it there (issue 38)', async () => {
    const setup = logic({
      data: { ...data, questionnaire: { ...data.questionnaire, product_id: 3 } },
      products: [productOf(3, 'Catalog'), productOf(4, 'Studio')],
    })
    renderPage(setup)
    const select = await screen.findByRole('combobox', { name: 'Product' })
    expect(select.textContent).toBe('Catalog')
    expect(screen.getByText('Answered for')).toBeTruthy()
    await chooseOption('Product', 'Studio')
    await waitFor(() =>
      expect(setup.assigned).toEqual([{ kind: 'questionnaire', id: 7, productId: 4 }]),
    )
    expect(select.textContent).toBe('Studio')
  })

  it('shows no product line while the organisation has no products', async () => {
    renderPage(logic())
    expect(await screen.findByRole('button', { name: /History/ })).toBeTruthy()
    expect(screen.queryByText('Answered for')).toBeNull()
  })
})
