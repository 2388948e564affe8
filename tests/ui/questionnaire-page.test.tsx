import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { STREAM_TEXTS } from '../../contract/streams.ts'
import { questionnaireOf, refusedLive, tabOf } from '../fixtures/answer-rows.ts'
import { stubLayout } from '../support/answer-panel.tsx'
import { chooseOption } from '../support/choose-option.ts'
import { data, pageLogic as logic, renderPage } from '../support/questionnaire-page.tsx'

stubLayout()

describe('questionnaire page', () => {
  it('shows the counts, the tabs with their counts, and the first tab’s questions', async () => {
    renderPage(logic())
    expect(await screen.findByRole('heading', { name: 'Vendor assessment.xlsx' })).toBeTruthy()
    const tabs = screen.getByRole('tablist', { name: 'Tabs' })
    expect(
      within(tabs)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['Security1/2', 'Privacy0/1'])
    const grid = screen.getByRole('listbox', { name: 'Questions of Security' })
    expect(within(grid).getAllByRole('option')).toHaveLength(2)
    fireEvent.click(within(tabs).getByRole('tab', { name: /Privacy/ }))
    const privacy = screen.getByRole('listbox', { name: 'Questions of Privacy' })
    expect(within(privacy).getByText('Do you appoint a data protection officer?')).toBeTruthy()
  })

  it('opens the focused question with its sources, and saves an edit with the new counts', async () => {
    const setup = logic()
    renderPage(setup)
    const grid = await screen.findByRole('listbox', { name: 'Questions of Security' })
    fireEvent.click(within(grid).getByText('Do you meet security requirement 2?'))
    const panel = screen.getByRole('region', { name: 'Answer' })
    // a source opens where it is: a document on its file page (issue 30)
    expect(
      within(panel).getByRole('link', { name: 'Access policy.pdf' }).getAttribute('href'),
    ).toBe('/repository/4?quote=Access+rights+are+reviewed+every+quarter.')
    expect(within(panel).getByText('High confidence · 91%')).toBeTruthy()
    // keyboard: up moves to the first question, Enter edits it
    fireEvent.keyDown(grid, { key: 'ArrowUp' })
    expect(screen.getByRole('region', { name: 'Answer' }).textContent).toContain('SEC-01')
    fireEvent.keyDown(grid, { key: 'Enter' })
    const editor = screen.getByRole('region', { name: 'Answer' })
    await chooseOption('Answer value', 'No', editor)
    fireEvent.change(within(editor).getByLabelText('Explanation'), {
      target: { value: 'Not yet.' },
    })
    fireEvent.click(within(editor).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(screen.getByText('2')).toBeTruthy())
    expect(setup.saved[0]?.edit).toEqual({
      text: 'Not yet.',
      choice: 'No',
      comment: '',
      version: 1,
    })
    expect(screen.getByText(/answered \(67%\)/)).toBeTruthy()
  })

  it('leads with the action the state calls for, turns Undo off with nothing to undo, counts each filter and warns of empty answers on export (issue 30)', async () => {
    renderPage(
      logic({ data: { ...data, questionnaire: questionnaireOf({ questions: 3, answered: 1 }) } }),
    )
    await screen.findByRole('heading', { name: 'Vendor assessment.xlsx' })
    // one of three answered; no change yet: Undo is off
    expect(screen.getByRole('button', { name: 'Undo' }).hasAttribute('disabled')).toBe(true)
    const filters = screen.getByRole('group', { name: 'Filter' })
    expect(
      within(filters)
        .getAllByTestId('filter-count')
        .map((count) => count.textContent),
    ).toEqual(['2', '1', '0', '1', '0'])
    fireEvent.click(screen.getByRole('button', { name: 'Export' }))
    expect((await screen.findByTestId('export-warning')).textContent).toBe(
      '2 of 3 answers are empty: their cells stay blank in the file.',
    )
  })

  it('counts approved, unreviewed and empty answers, and fills with approved answers only when asked (issue 39)', async () => {
    const page = logic({
      data: {
        ...data,
        questionnaire: questionnaireOf({ questions: 5, answered: 3, approved: 1 }),
      },
    })
    renderPage(page)
    await screen.findByRole('heading', { name: 'Vendor assessment.xlsx' })
    fireEvent.click(screen.getByRole('button', { name: 'Export' }))
    expect((await screen.findByTestId('export-counts')).textContent).toBe(
      'Approved 1 · Not reviewed 2 · Empty 2',
    )
    const items = screen.getAllByRole('menuitem').map((item) => item.textContent)
    expect(items.slice(0, 2)).toEqual([
      'Fill the original file (default)',
      'Fill with approved answers only',
    ])
    fireEvent.click(screen.getByRole('menuitem', { name: 'Fill with approved answers only' }))
    await waitFor(() => expect(page.exported).toEqual(['original approved only']))
  })

  it('shows the progress of an export while its job runs (issue 37)', async () => {
    const setup = logic({
      exportRun: {
        id: 5,
        status: 'running',
        progress: 40,
        label: 'Writing the file',
        approved_only: false,
        questionnaire_id: 7,
        format: 'original',
        filled_file: null,
        error: null,
      },
    })
    renderPage(setup)
    await screen.findByRole('heading', { name: 'Vendor assessment.xlsx' })
    fireEvent.click(screen.getByRole('button', { name: 'Export' }))
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Answers as CSV' }))
    expect((await screen.findByTestId('export-progress')).textContent).toBe(
      'Exporting: Writing the file · 40%',
    )
    expect(setup.exported).toEqual(['csv'])
  })

  it('says live updates are paused when the server refuses the live stream (issue 37)', async () => {
    renderPage(logic({ live: refusedLive }))
    await screen.findByRole('heading', { name: 'Vendor assessment.xlsx' })
    expect((await screen.findByTestId('live-paused')).textContent).toBe(STREAM_TEXTS.paused)
  })

  it('folds tabs without questions into one menu', async () => {
    renderPage(
      logic({
        data: { ...data, tabs: [tabOf(9, { name: 'Instructions', questions: 0 }), ...data.tabs] },
      }),
    )
    await screen.findByRole('heading', { name: 'Vendor assessment.xlsx' })
    const tabs = screen.getByRole('tablist', { name: 'Tabs' })
    expect(within(tabs).queryByRole('tab', { name: /Instructions/ })).toBeNull()
    expect(screen.getByRole('button', { name: '1 tab without questions' })).toBeTruthy()
  })

  it('shows what a section operation would change and runs it only once confirmed (issue 30)', async () => {
    const setup = logic()
    renderPage(setup)
    await screen.findByRole('listbox', { name: 'Questions of Security' })
    fireEvent.click(screen.getByRole('button', { name: /Section/ }))
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Shorten answers…' }))
    const dialog = await screen.findByRole('dialog', { name: 'Shorten answers' })
    expect(await within(dialog).findByText('Yes · Reviewed quarterly.')).toBeTruthy()
    expect(dialog.textContent).toContain('1 answer changes')
    expect(setup.previewed).toEqual([{ questionnaireId: 7, operation: 'shorten', tabId: 1 }])
    expect(setup.operations).toEqual([])
    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply to 1 answer' }))
    await waitFor(() => expect(setup.operations).toHaveLength(1))
    expect(setup.operations[0]).toMatchObject({ kind: 'section', operation: 'shorten', tabId: 1 })
  })

  it('shows the license notice in the spec’s words', async () => {
    renderPage(logic({ notice: 500 }))
    const dialog = await screen.findByRole('dialog', { name: 'License Limitation' })
    expect(dialog.textContent).toContain('Your license limits the number of answers to 500.')
  })

  it('filters the questions and opens the history', async () => {
    const setup = logic()
    renderPage(setup)
    const grid = await screen.findByRole('listbox', { name: 'Questions of Security' })
    fireEvent.click(screen.getByRole('button', { name: 'Needs review' }))
    expect(within(screen.getByRole('listbox')).getAllByRole('option')).toHaveLength(1)
    fireEvent.click(screen.getByRole('button', { name: 'Approved' }))
    expect(screen.getByText('No questions match this filter.')).toBeTruthy()
    expect(grid.isConnected).toBe(false)
    fireEvent.click(screen.getByRole('button', { name: 'History' }))
    expect(await screen.findByText('Edited the answer to SEC-01')).toBeTruthy()
  })
})
