import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { fromPromise } from 'xstate'
import type { FileDetails, FilePassage } from '../../contract/file-page.ts'
import type { RepositoryFile } from '../../contract/knowledge.ts'
import type { Paged } from '../../contract/paging.ts'
import type { Product } from '../../contract/products.ts'
import type { PassagesInput } from '../../machines/file-page/index.ts'
import type { AssignProductInput } from '../../machines/product-choice/index.ts'
import { createFilePageLogic } from '../../src/api/file-page-actors.ts'
import { FilePage } from '../../src/pages/repository/file-page.tsx'
import { productOf } from '../fixtures/products.ts'
import { repositoryFileOf } from '../fixtures/repository-files.ts'
import { chooseOption } from '../support/choose-option.ts'
import { renderInSession } from '../support/ui-render.tsx'

/**
 * Issue 30: the repository's uploads and files are one list (one status per file), a file's name
 * opens its page, and the page shows what was read from it, its statuses and what cites it.
 */

// links render without a router
vi.mock('@tanstack/react-router', () => import('../support/router-stub.tsx'))

const file = (id: number, name: string, status: RepositoryFile['status']) =>
  repositoryFileOf({ id, name, status })

describe('a file’s page', () => {
  const details: FileDetails = {
    file: file(7, 'Access policy.pdf', 'ready'),
    history: [
      { status: 'queued', version: 1, error: null, at: new Date().toISOString() },
      { status: 'processing', version: 1, error: null, at: new Date().toISOString() },
      { status: 'ready', version: 1, error: null, at: new Date().toISOString() },
    ],
    versions: [
      {
        version: 1,
        name: 'Access policy.pdf',
        kind: 'pdf',
        mime: 'application/pdf',
        size_bytes: 2048,
        sha256: null,
        created_at: new Date().toISOString(),
        created_by: null,
        current: true,
      },
    ],
    answers: [
      {
        questionnaire_id: 12,
        questionnaire_name: 'Acme review.xlsx',
        question_id: 340,
        question: 'Do you review access quarterly?',
        answer: 'Yes, every quarter.',
        status: 'approved',
      },
    ],
    answers_count: 1,
    items: [{ id: 9, question: 'Is access reviewed?', answer: 'Quarterly.' }],
  }
  const read: Paged<FilePassage> = {
    count: 2,
    results: [
      {
        id: 1,
        ordinal: 0,
        text: 'Access control policy',
        location: { page: 1 },
        question: null,
        answer: null,
      },
      {
        id: 2,
        ordinal: 1,
        text: 'Access is reviewed quarterly.',
        location: { page: 2 },
        question: null,
        answer: null,
      },
    ],
  }

  it('shows what was read with its pages, the status history, and the answers that cite it', async () => {
    const logic = createFilePageLogic({
      loadDetails: fromPromise<FileDetails, { id: number }>(async () => details),
      loadPassages: fromPromise<Paged<FilePassage>, PassagesInput>(async () => read),
    })
    renderInSession(<FilePage id={7} logic={logic} />)
    expect(await screen.findByRole('heading', { name: 'Access policy.pdf' })).toBeTruthy()
    const passages = await screen.findAllByTestId('file-passage')
    expect(passages.map((passage) => passage.textContent)).toEqual([
      'Page 1Access control policy',
      'Page 2Access is reviewed quarterly.',
    ])
    const history = screen.getByTestId('status-history')
    expect(within(history).getAllByRole('listitem')).toHaveLength(3)
    expect(within(history).getByText('Ready')).toBeTruthy()
    expect(
      screen.getByRole('link', { name: 'Do you review access quarterly?' }).getAttribute('href'),
    ).toBe('/questionnaire/12?question=340')
    expect(screen.getByRole('link', { name: 'Is access reviewed?' }).getAttribute('href')).toBe(
      '/knowledge-base?item=9',
    )
    expect(screen.getByTestId('file-page-version').textContent).toContain('Current')
  })

  it('marks the cited words of a source opened from an answer, and brings them into view (issue 39)', async () => {
    const scrolled: Element[] = []
    const original = Element.prototype.scrollIntoView
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this)
    }
    try {
      const logic = createFilePageLogic({
        loadDetails: fromPromise<FileDetails, { id: number }>(async () => details),
        loadPassages: fromPromise<Paged<FilePassage>, PassagesInput>(async () => read),
      })
      renderInSession(
        <FilePage id={7} citedPage={2} citedQuote="access is  REVIEWED quarterly" logic={logic} />,
      )
      const marked = await screen.findByTestId('cited-quote')
      expect(marked.textContent).toBe('Access is reviewed quarterly')
      expect(marked.closest('[data-testid="file-passage"]')?.hasAttribute('data-cited')).toBe(true)
      expect(scrolled).toEqual([marked])
    } finally {
      Element.prototype.scrollIntoView = original
    }
  })

  it('another organisation’s file: not found, with a retry', async () => {
    const logic = createFilePageLogic({
      loadDetails: fromPromise<FileDetails, { id: number }>(async () => {
        throw new Error('File not found')
      }),
      loadPassages: fromPromise<Paged<FilePassage>, PassagesInput>(async () => read),
    })
    renderInSession(<FilePage id={7} logic={logic} />)
    expect(await screen.findByText('File not found')).toBeTruthy()
    expect(screen.getByRole('button', { name: /retry|try again/i })).toBeTruthy()
  })

  it('says which product the file speaks for, and changes it (issue 38)', async () => {
    const assigned: AssignProductInput[] = []
    const catalog = productOf(3, 'Catalog', { files: 1 })
    const logic = createFilePageLogic(
      {
        loadDetails: fromPromise<FileDetails, { id: number }>(async () => ({
          ...details,
          file: { ...details.file, product_id: 3 },
        })),
        loadPassages: fromPromise<Paged<FilePassage>, PassagesInput>(async () => read),
      },
      {
        loadProductChoices: fromPromise<Product[], void>(async () => [catalog]),
        assignProduct: fromPromise<void, AssignProductInput>(async ({ input }) => {
          assigned.push(input)
        }),
      },
    )
    renderInSession(<FilePage id={7} logic={logic} />)
    const select = await screen.findByRole('combobox', { name: 'Product' })
    expect(select.textContent).toBe('Catalog')
    expect(screen.getByText('Speaks for')).toBeTruthy()
    await chooseOption('Product', 'All products')
    await waitFor(() => expect(assigned).toEqual([{ kind: 'file', id: 7, productId: null }]))
    expect(select.textContent).toBe('All products')
  })
})
