import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fromPromise } from 'xstate'
import type {
  Activity,
  AssignRequest,
  Comment,
  Person,
  ReviewActionRequest,
} from '../../contract/collaboration.ts'
import type { Product } from '../../contract/products.ts'
import type {
  AnswerChange,
  CarryForwardResponse,
  ExportRun,
  FilledFile,
  Operation,
  PreviousMatch,
  Questionnaire,
  SectionPreview,
} from '../../contract/questionnaires.ts'
import { STREAM_TEXTS } from '../../contract/streams.ts'
import { answerMachine, type SaveAnswerInput } from '../../machines/answer/index.ts'
import { assignmentMachine } from '../../machines/assignment/index.ts'
import { carryForwardMachine } from '../../machines/carry-forward/index.ts'
import { type CommentAction, commentThreadMachine } from '../../machines/comment-thread/index.ts'
import {
  type AssignProductInput,
  productChoiceMachine,
} from '../../machines/product-choice/index.ts'
import { questionReviewMachine } from '../../machines/question-review/index.ts'
import { questionnaireActivityMachine } from '../../machines/questionnaire-activity/index.ts'
import { questionnaireExportMachine } from '../../machines/questionnaire-export/index.ts'
import {
  type OperationResult,
  questionnaireWorkspaceMachine,
  type WorkspaceData,
  type WorkspaceOperation,
} from '../../machines/questionnaire-workspace/index.ts'
import {
  type PreviewSectionInput,
  sectionPreviewMachine,
} from '../../machines/section-preview/index.ts'
import { SessionContext } from '../../src/app/session.tsx'
import { ToasterContext } from '../../src/app/toaster.tsx'
import { QuestionnaireWorkspace } from '../../src/pages/questionnaire/questionnaire-page.tsx'
import {
  CARRIED,
  changeOf,
  previousMatchOf,
  questionnaireOf,
  quietLive,
  refusedLive,
  rowOf,
  tabOf,
} from '../fixtures/answer-rows.ts'
import { ada, commentOf, people } from '../fixtures/comments.ts'
import { productOf } from '../fixtures/products.ts'
import { exportStarts, noFilledFileYet } from '../machines/export-fixtures.ts'
import { stubLayout } from '../support/answer-panel.tsx'
import { chooseOption } from '../support/choose-option.ts'
import { readingSession } from '../support/ui-session.ts'

stubLayout()

const data: WorkspaceData = {
  questionnaire: questionnaireOf({ questions: 3 }),
  tabs: [tabOf(1), tabOf(2, { name: 'Privacy', questions: 1 })],
  rows: [
    rowOf(1),
    rowOf(
      2,
      {},
      {
        text: 'Reviewed quarterly.',
        choice: 'Yes',
        status: 'generated',
        confidence: 0.91,
        band: 'high',
        citations: [
          {
            source: 'file',
            id: 4,
            title: 'Access policy.pdf',
            snippet: 'Access rights are reviewed every quarter.',
          },
        ],
      },
    ),
    rowOf(3, {
      tab_id: 2,
      tab: 'Privacy',
      ref: 'PRV-01',
      text: 'Do you appoint a data protection officer?',
    }),
  ],
}

function logic(
  options: {
    notice?: number
    save?: (input: SaveAnswerInput) => Promise<AnswerChange>
    data?: WorkspaceData
    previous?: PreviousMatch[]
    carried?: CarryForwardResponse
    /** Each question's comments; absent: they are still being read. */
    comments?: Comment[]
    /** The run an export starts (and stays at); absent: starting one fails. */
    exportRun?: ExportRun
    /** The live side; quiet (never opens) when absent. */
    live?: typeof quietLive
    /** The organisation's products (issue 38); none when absent. */
    products?: Product[]
  } = {},
) {
  let loads = 0
  const commented: CommentAction[] = []
  const carriedFrom: number[] = []
  const operations: WorkspaceOperation[] = []
  const previewed: PreviewSectionInput[] = []
  const saved: SaveAnswerInput[] = []
  const exported: string[] = []
  const assigned: AssignProductInput[] = []
  return {
    assigned,
    operations,
    previewed,
    saved,
    exported,
    carriedFrom,
    commented,
    loads: () => loads,
    logic: {
      workspace: questionnaireWorkspaceMachine.provide({
        actors: {
          live: options.live ?? quietLive,
          loadWorkspace: fromPromise<WorkspaceData, { id: number }>(async () => {
            loads += 1
            return options.data ?? data
          }),
          fetchQuestionnaire: fromPromise<Questionnaire, { id: number }>(
            async () => data.questionnaire,
          ),
          runOperation: fromPromise<OperationResult, { id: number; operation: WorkspaceOperation }>(
            async ({ input }) => {
              operations.push(input.operation)
              return { change: changeOf([]) }
            },
          ),
          loadHistory: fromPromise<Operation[], { id: number }>(async () => [
            {
              id: 1,
              kind: 'edit',
              summary: 'Edited the answer to SEC-01',
              questions: 1,
              by: { id: '1', name: 'Ada Lovelace', email: 'ada@example.com' },
              created_at: new Date().toISOString(),
              undone: false,
              can_undo: true,
            },
          ]),
          reanalyze: fromPromise<Questionnaire, { id: number }>(async () => data.questionnaire),
          licenseNotice: fromPromise<number, void>(async () => options.notice ?? 0),
        },
      }),
      answer: answerMachine.provide({
        actors: {
          saveAnswer: fromPromise<AnswerChange, SaveAnswerInput>(async ({ input }) => {
            saved.push(input)
            if (options.save) return options.save(input)
            return changeOf(
              [
                rowOf(
                  1,
                  {},
                  { text: input.edit.text, choice: input.edit.choice, status: 'edited' },
                ),
              ],
              { questions: 3, answered: 2 },
            )
          }),
        },
      }),
      exports: questionnaireExportMachine.provide({
        actors: {
          checkFilled: noFilledFileYet(),
          startExport: exportStarts(async (input) => {
            exported.push(
              input.approvedOnly === null
                ? input.format
                : `${input.format}${input.approvedOnly ? ' approved only' : ' all drafts'}`,
            )
            if (options.exportRun) return { ...options.exportRun, format: input.format }
            throw new Error('Questionnaire not found')
          }),
          loadExport: fromPromise<ExportRun, { runId: number }>(() => new Promise(() => {})),
          downloadFilled: fromPromise<void, { file: FilledFile }>(async () => {}),
        },
      }),
      carry: carryForwardMachine.provide({
        actors: {
          loadPrevious: fromPromise<PreviousMatch[], { id: number }>(
            async () => options.previous ?? [],
          ),
          carryForward: fromPromise<CarryForwardResponse, { id: number; fromId: number }>(
            async ({ input }) => {
              carriedFrom.push(input.fromId)
              if (!options.carried) throw new Error('Questionnaire not found')
              return options.carried
            },
          ),
        },
      }),
      assignment: assignmentMachine.provide({
        actors: {
          loadPeople: fromPromise<Person[], void>(async () => []),
          assign: fromPromise<number, { questionnaireId: number; request: AssignRequest }>(
            async () => 0,
          ),
        },
      }),
      activity: questionnaireActivityMachine.provide({
        actors: { loadActivity: fromPromise<Activity[], { id: number }>(async () => []) },
      }),
      review: questionReviewMachine.provide({
        actors: {
          review: fromPromise<AnswerChange, { questionId: number; request: ReviewActionRequest }>(
            () => new Promise(() => {}),
          ),
        },
      }),
      sections: sectionPreviewMachine.provide({
        actors: {
          previewSection: fromPromise<SectionPreview, PreviewSectionInput>(async ({ input }) => {
            previewed.push(input)
            return {
              changes: [
                {
                  question_id: 2,
                  ref: 'SEC-02',
                  question: 'Do you meet security requirement 2?',
                  before: { text: 'Reviewed quarterly. By the security officer.', choice: 'Yes' },
                  after: { text: 'Reviewed quarterly.', choice: 'Yes' },
                },
              ],
              contradictions: [],
            }
          }),
        },
      }),
      comments: commentThreadMachine.provide({
        actors: {
          loadComments: fromPromise<Comment[], { questionId: number }>(() =>
            options.comments ? Promise.resolve(options.comments) : new Promise(() => {}),
          ),
          loadPeople: fromPromise<Person[], void>(async () => people),
          act: fromPromise<Comment, CommentAction>(async ({ input }) => {
            commented.push(input)
            if (input.kind !== 'create') throw new Error('That comment was not found.')
            return commentOf(9, { body: input.request.body })
          }),
        },
      }),
      products: productChoiceMachine.provide({
        actors: {
          loadProductChoices: fromPromise<Product[], void>(async () => options.products ?? []),
          assignProduct: fromPromise<void, AssignProductInput>(async ({ input }) => {
            assigned.push(input)
          }),
        },
      }),
    },
  }
}

const renderPage = (setup: ReturnType<typeof logic>) =>
  render(
    <SessionContext.Provider logic={readingSession}>
      <ToasterContext.Provider>
        <QuestionnaireWorkspace id={7} logic={setup.logic} />
      </ToasterContext.Provider>
    </SessionContext.Provider>,
  )

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
