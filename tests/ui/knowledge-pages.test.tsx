import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { fromCallback, fromPromise } from 'xstate'
import type {
  AnsweredRow,
  FileVersion,
  QaItem,
  RepositoryFile,
  SearchResult,
} from '../../contract/knowledge.ts'
import type { LibraryHealth } from '../../contract/questionnaires.ts'
import type { FileAction, FileQuery, ListOutput } from '../../machines/file-list/index.ts'
import type { ItemListQuery } from '../../machines/item-list/index.ts'
import { libraryHealthMachine } from '../../machines/library-health/index.ts'
import type { UploadInput, UploadQueueEvents } from '../../machines/upload-queue/index.ts'
import { repositoryActors } from '../../src/api/knowledge-actors.ts'
import { createRepositoryLogic } from '../../src/api/repository-logic.ts'
import KnowledgeBasePage from '../../src/pages/knowledge-base/knowledge-base-page.tsx'
import { Snippet } from '../../src/pages/knowledge-base/snippet.tsx'
import RepositoryPage from '../../src/pages/repository/repository-page.tsx'
import { qaItemOf } from '../fixtures/qa-items.ts'
import { repositoryFileOf } from '../fixtures/repository-files.ts'
import { chooseOption, optionTexts } from '../support/choose-option.ts'
import { knowledgeLogicOf } from '../support/knowledge-logic.ts'
import { renderInSession } from '../support/ui-render.tsx'

// links render without a router
vi.mock('@tanstack/react-router', () => import('../support/router-stub.tsx'))

const file = (
  id: number,
  name: string,
  status: RepositoryFile['status'],
  error: string | null = null,
): RepositoryFile =>
  repositoryFileOf({
    id,
    name,
    status,
    error,
    tags: ['policies'],
    progress: status === 'processing' ? 40 : 0,
  })

function repositoryLogic(
  list: ListOutput,
  upload?: (input: UploadInput, send: (e: UploadQueueEvents) => void) => void,
) {
  return createRepositoryLogic({
    ...repositoryActors(),
    loadFiles: fromPromise<ListOutput, FileQuery>(async () => list),
    deleteFiles: fromPromise<number, { ids: number[] }>(async ({ input }) => input.ids.length),
    runAction: fromPromise<void, FileAction>(async () => {}),
    uploadFile: fromCallback<UploadQueueEvents, UploadInput>(({ input, sendBack }) =>
      upload?.(input, sendBack),
    ),
  })
}

/** A knowledge base with no items whose search finds `results`. */
const emptyKnowledgeLogic = (results: SearchResult[]) =>
  knowledgeLogicOf(async () => ({ count: 0, results: [] }), {
    search: fromPromise<SearchResult[], { q: string }>(async () => results),
  })

describe('repository page', () => {
  it('tells a new user what to upload when the repository is empty', async () => {
    renderInSession(<RepositoryPage logic={repositoryLogic({ count: 0, results: [] })} />)
    expect(await screen.findByText('No documents yet')).toBeTruthy()
    expect(screen.getByText(/policies, SOC 2 and ISO reports/)).toBeTruthy()
  })

  it('lists files with their status, and a failed file shows its error', async () => {
    renderInSession(
      <RepositoryPage
        logic={repositoryLogic({
          count: 2,
          results: [
            file(1, 'Policy.pdf', 'ready'),
            file(2, 'Locked.pdf', 'failed', 'The PDF is password-protected'),
          ],
        })}
      />,
    )
    const rows = await screen.findAllByTestId('file-row')
    expect(rows).toHaveLength(2)
    expect(within(rows[1] as HTMLElement).getByText('The PDF is password-protected')).toBeTruthy()
    expect(within(rows[0] as HTMLElement).getByText('Ready')).toBeTruthy()
  })

  it('shows each upload with its progress, and refuses an unsupported file before sending it', async () => {
    renderInSession(
      <RepositoryPage
        logic={repositoryLogic({ count: 0, results: [] }, (input, send) =>
          send({ type: 'upload.progress', key: input.key, progress: 42 }),
        )}
      />,
    )
    await screen.findByText('No documents yet')
    const picker = screen.getByTestId('file-picker')
    // Ark's file upload reads the input's `input` event (a browser fires it with `change`)
    fireEvent.input(picker, {
      target: {
        files: [
          new File(['%PDF-1.4'], 'report.pdf', { type: 'application/pdf' }),
          new File(['MZ'], 'tool.exe'),
        ],
      },
    })
    const rows = await screen.findAllByTestId('upload-row')
    expect(within(rows[0] as HTMLElement).getByText(/Uploading/)).toBeTruthy()
    expect(within(rows[0] as HTMLElement).getByText(/42%/)).toBeTruthy()
    expect(
      within(rows[1] as HTMLElement).getByText(/tool.exe is not a supported file type/),
    ).toBeTruthy()
  })
  it('a file with versions shows v2; an upload that made a new version says so; History lists them', async () => {
    const versioned = { ...file(1, 'Policy.pdf', 'ready'), version: 2 }
    const logic = createRepositoryLogic({
      ...repositoryActors(),
      loadFiles: fromPromise<ListOutput, FileQuery>(async () => ({
        count: 1,
        results: [versioned],
      })),
      uploadFile: fromCallback<UploadQueueEvents, UploadInput>(({ input, sendBack }) =>
        sendBack({
          type: 'upload.done',
          key: input.key,
          file: { ...versioned, version: 3, new_version: true, unchanged: false },
        }),
      ),
      loadVersions: fromPromise<FileVersion[], { id: number }>(async () =>
        [2, 1].map((version) => ({
          version,
          name: 'Policy.pdf',
          kind: 'pdf' as const,
          mime: 'application/pdf',
          size_bytes: 1000 * version,
          sha256: null,
          created_at: new Date().toISOString(),
          created_by: { id: '1', name: 'Ada Lovelace', email: 'ada@example.com' },
          current: version === 2,
        })),
      ),
    })
    renderInSession(<RepositoryPage logic={logic} />)
    const [row] = await screen.findAllByTestId('file-row')
    expect(within(row as HTMLElement).getByTestId('file-version-chip').textContent).toBe('v2')

    fireEvent.input(screen.getByTestId('file-picker'), {
      target: { files: [new File(['%PDF-1.4'], 'Policy.pdf', { type: 'application/pdf' })] },
    })
    expect(await screen.findByText('New version 3 of Policy.pdf')).toBeTruthy()
    // uploaded: the file's own row shows it, not a second row of the upload
    await waitFor(() => expect(screen.queryAllByTestId('upload-row')).toHaveLength(0))
    expect(screen.getAllByTestId('file-row')).toHaveLength(1)

    fireEvent.click(screen.getByRole('button', { name: 'Actions for Policy.pdf' }))
    fireEvent.click(await screen.findByRole('menuitem', { name: 'History' }))
    const dialog = await screen.findByRole('dialog', { name: 'Version history' })
    const versions = await within(dialog).findAllByTestId('file-version')
    expect(versions.map((version) => version.textContent)).toEqual([
      expect.stringContaining('Version 2Current'),
      expect.stringContaining('Version 1'),
    ])
    expect(within(dialog).getByRole('button', { name: 'Download version 1' })).toBeTruthy()
  })
})

describe('the repository: one list (issue 30)', () => {
  it('an upload shows in the table until the server has it, then only its file’s row, with one status', async () => {
    const listed: RepositoryFile[] = [file(1, 'Policy.pdf', 'ready')]
    const finishing: { finish?: () => void } = {}
    const logic = createRepositoryLogic({
      ...repositoryActors(),
      loadFiles: fromPromise<ListOutput, FileQuery>(async () => ({
        count: listed.length,
        results: [...listed],
      })),
      uploadFile: fromCallback<UploadQueueEvents, UploadInput>(({ input, sendBack }) => {
        sendBack({ type: 'upload.progress', key: input.key, progress: 42 })
        finishing.finish = () => {
          const uploaded = file(2, 'Report.pdf', 'queued')
          listed.unshift(uploaded)
          sendBack({
            type: 'upload.done',
            key: input.key,
            file: { ...uploaded, new_version: false, unchanged: false },
          })
        }
      }),
    })
    renderInSession(<RepositoryPage logic={logic} />)
    await screen.findAllByTestId('file-row')
    fireEvent.input(screen.getByTestId('file-picker'), {
      target: { files: [new File(['%PDF-1.4'], 'report.pdf', { type: 'application/pdf' })] },
    })
    // the upload is a row of the same table, above the files
    const upload = await screen.findByTestId('upload-row')
    const table = screen.getByRole('table')
    expect(table.contains(upload)).toBe(true)
    expect(within(upload).getByText(/Uploading/)).toBeTruthy()
    expect(screen.queryByRole('region', { name: 'Uploads' })).toBeNull()
    // a file's name opens its page
    expect(screen.getByRole('link', { name: 'Policy.pdf' }).getAttribute('href')).toBe(
      '/repository/1',
    )

    finishing.finish?.()
    await waitFor(() => expect(screen.queryAllByTestId('upload-row')).toHaveLength(0))
    const rows = await screen.findAllByTestId('file-row')
    const report = rows.find((row) => row.textContent?.includes('Report.pdf')) as HTMLElement
    expect(within(report).getByText('Queued')).toBeTruthy()
    // the same file is never shown twice with two statuses
    expect(screen.getAllByText('Report.pdf')).toHaveLength(1)
    expect(within(report).queryByText(/Processing|Uploading/)).toBeNull()
  })
})

describe('knowledge base page', () => {
  it('renders snippets as text with only the marks highlighted', () => {
    const { container } = render(
      <Snippet
        html={'Use &lt;script&gt;alert(1)&lt;/script&gt; <mark>encryption</mark> &amp; keys'}
      />,
    )
    expect(container.querySelector('script')).toBeNull()
    expect(container.textContent).toBe('Use <script>alert(1)</script> encryption & keys')
    expect(container.querySelector('mark')?.textContent).toBe('encryption')
  })

  it('shows ranked search results with their source and location', async () => {
    const result: SearchResult = {
      id: 'passage:1',
      kind: 'passage',
      text: 'Backups are encrypted.',
      snippet: 'Backups are <mark>encrypted</mark>.',
      score: 0.8,
      file_id: 3,
      item_id: null,
      source: { name: 'Security overview.pdf', kind: 'pdf', location: { page: 4 } },
    }
    const logic = emptyKnowledgeLogic([result])
    renderInSession(<KnowledgeBasePage logic={logic} />)
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search the knowledge base' }), {
      target: { value: 'backups' },
    })
    const found = await screen.findByTestId('search-result', {}, { timeout: 2_000 })
    expect(within(found).getByText('Security overview.pdf')).toBeTruthy()
    expect(within(found).getByText('page 4')).toBeTruthy()
    expect(found.querySelector('mark')?.textContent).toBe('encrypted')
    // one search box: its results stand in for the sections until it is cleared
    expect(screen.getAllByRole('searchbox')).toHaveLength(1)
    expect(screen.queryByRole('tab', { name: /Q&A/ })).toBeNull()
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: '' } })
    expect(await screen.findByRole('tab', { name: /Q&A/ })).toBeTruthy()
    // nothing anywhere: one empty state, which names every way in
    expect(await screen.findByText('No answers yet')).toBeTruthy()
    expect(screen.queryByRole('region', { name: 'From completed questionnaires' })).toBeNull()
  })

  it('shows the rows of completed questionnaires on the Q&A tab with their file', async () => {
    const row: AnsweredRow = {
      id: 7,
      question: 'Do you encrypt data at rest?',
      answer: 'Yes',
      detail: 'AES-256 on every volume.',
      file_id: 3,
      file_name: 'HECVAT 2024.xlsx',
      location: { sheet: 'Security', row: 12 },
    }
    const asked: string[] = []
    const logic = knowledgeLogicOf(async (query) => {
      asked.push(query.kind)
      return query.kind === 'answered' ? { count: 1, results: [row] } : { count: 0, results: [] }
    })
    renderInSession(<KnowledgeBasePage logic={logic} />)
    const answered = await screen.findByTestId('answered-row')
    expect(within(answered).getByText('Do you encrypt data at rest?')).toBeTruthy()
    expect(within(answered).getByText('Yes - AES-256 on every volume.')).toBeTruthy()
    expect(within(answered).getByRole('button', { name: 'Download HECVAT 2024.xlsx' })).toBeTruthy()
    expect(within(answered).getByText('row 12')).toBeTruthy()
    // read-only: no edit or delete menu on a file's row
    expect(within(answered).queryByRole('button', { name: /actions/i })).toBeNull()
    // the empty Q&A list knows the rows below it: no "import a completed questionnaire" above one
    expect(await screen.findByText('No Q&A items of your own yet')).toBeTruthy()
    expect(
      screen.getByText(/Quire already answers from the row of completed questionnaires below/),
    ).toBeTruthy()
    expect(screen.queryByText('No Q&A items yet')).toBeNull()
    expect(screen.queryByText(/import a completed questionnaire/)).toBeNull()
    expect(screen.getAllByRole('searchbox')).toHaveLength(1)
    expect(asked).toEqual(expect.arrayContaining(['qa', 'answered']))
  })

  it('the item editor shows the contract’s words for missing fields', async () => {
    const logic = emptyKnowledgeLogic([])
    renderInSession(<KnowledgeBasePage logic={logic} />)
    fireEvent.click(screen.getByRole('button', { name: /Add Q&A/ }))
    const dialog = await screen.findByRole('dialog')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await within(dialog).findByText('Enter a question')).toBeTruthy()
    expect(within(dialog).getByText('Enter an answer')).toBeTruthy()
  })

  /** A knowledge base whose Q&A list is `items` (the queue: those not fresh), recording queries. */
  function freshnessLogic(items: QaItem[], markReviewed?: (id: number) => Promise<QaItem>) {
    const queries: ItemListQuery[] = []
    const logic = knowledgeLogicOf(
      async (query) => {
        queries.push(query)
        if (query.kind !== 'qa') return { count: 0, results: [] }
        const results = query.queue
          ? items.filter((item) => item.freshness !== 'fresh')
          : items.filter((item) => !query.freshness || item.freshness === query.freshness)
        return { count: results.length, results }
      },
      {
        markReviewed: fromPromise<QaItem, { id: number }>(async ({ input }) =>
          markReviewed
            ? markReviewed(input.id)
            : { ...(items.find((item) => item.id === input.id) as QaItem), ...fresh(input.id) },
        ),
      },
    )
    return { logic, queries }
  }
  const fresh = (id: number) => ({
    ...qaItemOf({ id, daysAgo: 0 }),
    reviewed_by: { id: '1', name: 'Ada Lovelace', email: 'ada@example.com' },
  })
  const bea = { id: '4', name: 'Bea Ng', email: 'bea@example.com' }
  const items = [
    qaItemOf({ id: 1, question: 'Is MFA enforced?', daysAgo: 400, owner_id: 4, owner: bea }),
    qaItemOf({ id: 2, question: 'Do you run pen tests?', daysAgo: 350 }),
    qaItemOf({ id: 3, question: 'Is there a DPO?', daysAgo: 5, owner_id: 4, owner: bea }),
  ]

  it('shows each Q&A item’s freshness, owner and last review, and filters by freshness and owner', async () => {
    const { logic, queries } = freshnessLogic(items)
    renderInSession(<KnowledgeBasePage logic={logic} />)
    const rows = await screen.findAllByTestId('kb-item')
    expect(rows.map((row) => row.dataset.freshness)).toEqual(['stale', 'due', 'fresh'])
    const [stale, due] = rows as [HTMLElement, HTMLElement]
    expect(within(stale).getByText('Stale')).toBeTruthy()
    expect(within(stale).getByText('Bea Ng')).toBeTruthy()
    expect(within(stale).getByText(/^Reviewed \w+/)).toBeTruthy()
    expect(within(due).getByText('Review due')).toBeTruthy()
    expect(within(due).getByText('No owner')).toBeTruthy()

    const freshness = screen.getByRole('group', { name: 'Freshness' })
    fireEvent.click(within(freshness).getByRole('button', { name: 'Stale' }))
    await waitFor(() => expect(screen.getAllByTestId('kb-item')).toHaveLength(1))
    expect(
      within(freshness).getByRole('button', { name: 'Stale' }).getAttribute('aria-pressed'),
    ).toBe('true')
    fireEvent.click(
      within(screen.getByRole('group', { name: 'Owner' })).getByRole('button', { name: 'Mine' }),
    )
    await waitFor(() =>
      expect(queries.at(-1)).toMatchObject({ kind: 'qa', freshness: 'stale', owner: 'me' }),
    )
  })

  it('marks an answer reviewed from its row: the row turns fresh and a toast says so', async () => {
    const { logic } = freshnessLogic(items)
    renderInSession(<KnowledgeBasePage logic={logic} />)
    await screen.findAllByTestId('kb-item')
    fireEvent.click(screen.getByRole('button', { name: 'Actions for Is MFA enforced?' }))
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Mark reviewed' }))
    expect(await screen.findByText('Marked reviewed')).toBeTruthy()
    await waitFor(() =>
      expect(screen.getAllByTestId('kb-item').map((row) => row.dataset.freshness)).toEqual([
        'fresh',
        'due',
        'fresh',
      ]),
    )
    expect(
      within(screen.getAllByTestId('kb-item')[0] as HTMLElement).getByText(/by Ada Lovelace/),
    ).toBeTruthy()
  })

  it('the review queue lists due and stale answers; Confirm clears one, a refusal is said in plain words', async () => {
    const refusal =
      'Only the answer’s owner or someone who manages the library can mark it reviewed'
    const { logic, queries } = freshnessLogic(items, async (id) => {
      if (id === 2) throw new Error(refusal)
      return fresh(id)
    })
    renderInSession(<KnowledgeBasePage logic={logic} />)
    fireEvent.click(screen.getByRole('tab', { name: /Review due/ }))
    await waitFor(() => expect(screen.getAllByTestId('kb-item')).toHaveLength(2))
    expect(queries.at(-1)).toMatchObject({ kind: 'qa', queue: true })
    fireEvent.click(screen.getByRole('button', { name: 'Confirm Is MFA enforced?' }))
    await waitFor(() => expect(screen.getAllByTestId('kb-item')).toHaveLength(1))
    expect(screen.getByText('1 answer to review')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Confirm Do you run pen tests?' }))
    const row = screen.getByTestId('kb-item')
    expect((await within(row).findByRole('alert')).textContent).toBe(refusal)
    // Edit opens the item editor; Retire asks before deleting
    fireEvent.click(within(row).getByRole('button', { name: 'Edit Do you run pen tests?' }))
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByRole('heading', { name: 'Edit Q&A item' })).toBeTruthy()
  })

  it('the editor sets a Q&A item’s owner among the organisation’s people and its review cycle', async () => {
    const { logic } = freshnessLogic([])
    renderInSession(<KnowledgeBasePage logic={logic} />)
    fireEvent.click(screen.getByRole('button', { name: /Add Q&A/ }))
    const dialog = await screen.findByRole('dialog')
    await waitFor(async () =>
      expect(await optionTexts('Owner', dialog)).toEqual(['No owner', 'Bea Ng']),
    )
    expect((await optionTexts('Review cycle', dialog))[0]).toBe('Use the organisation’s (180 days)')
    await chooseOption('Review cycle', 'A number of days', dialog)
    const days = within(dialog).getByLabelText('Review cycle in days') as HTMLInputElement
    expect(days.value).toBe('180')
    fireEvent.change(days, { target: { value: '5000' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(
      await within(dialog).findByText('The review cycle is at most 3,650 days (10 years)'),
    ).toBeTruthy()
  })

  it('library health counts the workload; stale and due open the Q&A list so filtered, conflicts open the groups', async () => {
    const { logic: base, queries } = freshnessLogic(items)
    const health: LibraryHealth = {
      counts: { stale: 1, due: 1, source_changed: 2, conflicts: 1 },
      groups: [
        {
          kind: 'conflict',
          items: [1, 2].map((id) => ({
            id,
            source: 'qa' as const,
            question: 'Is data encrypted at rest?',
            answer: id === 1 ? 'Yes' : 'No',
            dropdown_value: null,
            updated_at: null,
            file_id: null,
            file_name: null,
            dated_at: id === 1 ? '2026-03-01T10:00:00.000Z' : '2025-01-10T10:00:00.000Z',
            newest: id === 1,
          })),
        },
      ],
    }
    const logic = {
      ...base,
      health: libraryHealthMachine.provide({
        actors: { loadHealth: fromPromise<LibraryHealth, void>(async () => health) },
      }),
    }
    renderInSession(<KnowledgeBasePage logic={logic} />)
    const panel = await screen.findByTestId('library-health')
    expect(within(panel).getByTestId('health-stale').textContent).toContain('1')
    expect(within(panel).getByTestId('health-source-changed').textContent).toContain('2')
    const groups = panel.querySelector('details') as HTMLDetailsElement
    expect(groups.open).toBe(false)
    fireEvent.click(within(panel).getByTestId('health-conflicts'))
    await waitFor(() => expect(groups.open).toBe(true))

    fireEvent.click(within(panel).getByTestId('health-due'))
    const lastQa = () => queries.filter((query) => query.kind === 'qa').at(-1)
    await waitFor(() => expect(lastQa()).toMatchObject({ freshness: 'due' }))
    await waitFor(() =>
      expect(screen.getAllByTestId('kb-item').map((row) => row.dataset.freshness)).toEqual(['due']),
    )
    const freshness = screen.getByRole('group', { name: 'Freshness' })
    expect(
      within(freshness).getByRole('button', { name: 'Review due' }).getAttribute('aria-pressed'),
    ).toBe('true')
    fireEvent.click(within(screen.getByTestId('library-health')).getByTestId('health-stale'))
    await waitFor(() => expect(lastQa()).toMatchObject({ freshness: 'stale' }))
  })
})
