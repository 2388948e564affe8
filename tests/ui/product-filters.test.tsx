import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { fromCallback, fromPromise } from 'xstate'
import type { QaItem } from '../../contract/knowledge.ts'
import type { Product } from '../../contract/products.ts'
import type { FileQuery, ListOutput } from '../../machines/file-list/index.ts'
import type { SaveItemInput } from '../../machines/item-editor/index.ts'
import type { ItemListQuery } from '../../machines/item-list/index.ts'
import type { AssignProductInput } from '../../machines/product-choice/index.ts'
import type { UploadInput, UploadQueueEvents } from '../../machines/upload-queue/index.ts'
import { repositoryActors } from '../../src/api/knowledge-actors.ts'
import { createRepositoryLogic } from '../../src/api/repository-logic.ts'
import KnowledgeBasePage from '../../src/pages/knowledge-base/knowledge-base-page.tsx'
import RepositoryPage from '../../src/pages/repository/repository-page.tsx'
import { productOf } from '../fixtures/products.ts'
import { qaItemOf } from '../fixtures/qa-items.ts'
import { repositoryFileOf } from '../fixtures/repository-files.ts'
import { chooseOption } from '../support/choose-option.ts'
import { knowledgeLogicOf, ownersOf } from '../support/knowledge-logic.ts'
import { renderInSession } from '../support/ui-render.tsx'

/**
 * Products in the repository and the knowledge base (issue 38): uploads say which product files
 * speak for, the lists filter by product, and a Q&A item's editor sets its product. With no
 * products, none of it shows.
 */

// links render without a router
vi.mock('@tanstack/react-router', () => import('../support/router-stub.tsx'))

const catalog = productOf(3, 'Catalog', { files: 1, qa_items: 1 })
const productActors = (products: Product[]) => ({
  loadProductChoices: fromPromise<Product[], void>(async () => products),
  assignProduct: fromPromise<void, AssignProductInput>(async () => {}),
})
const file = repositoryFileOf({ added_by: null, product_id: null })

function repository(products: Product[]) {
  const queries: FileQuery[] = []
  const uploads: UploadInput[] = []
  const logic = createRepositoryLogic(
    {
      ...repositoryActors(),
      loadFiles: fromPromise<ListOutput, FileQuery>(async ({ input }) => {
        queries.push(input)
        return { count: 2, results: [file, { ...file, id: 2, name: 'Catalog.pdf', product_id: 3 }] }
      }),
      uploadFile: fromCallback<UploadQueueEvents, UploadInput>(({ input }) => {
        uploads.push(input)
      }),
    },
    productActors(products),
  )
  return { logic, queries, uploads }
}

function knowledge(products: Product[], items: QaItem[]) {
  const queries: ItemListQuery[] = []
  const saved: SaveItemInput[] = []
  const logic = knowledgeLogicOf(
    async (query) => {
      queries.push(query)
      return query.kind === 'qa'
        ? { count: items.length, results: items }
        : { count: 0, results: [] }
    },
    {
      loadOwnerChoices: ownersOf(null),
      saveItem: fromPromise<void, SaveItemInput>(async ({ input }) => {
        saved.push(input)
      }),
    },
    productActors(products),
  )
  return { logic, queries, saved }
}

describe('products in the repository and the knowledge base (issue 38)', () => {
  it('the repository uploads for the chosen product and filters by product', async () => {
    const { logic, queries, uploads } = repository([catalog])
    renderInSession(<RepositoryPage logic={logic} />)
    await screen.findByRole('combobox', { name: 'Speaks for' })
    // a file that speaks for one product says which; a company-wide one says nothing
    const rows = await screen.findAllByTestId('file-row')
    expect(rows.map((row) => within(row).queryByTitle('Speaks for')?.textContent ?? null)).toEqual([
      null,
      'Speaks for: Catalog',
    ])
    await chooseOption('Speaks for', 'Catalog')
    fireEvent.input(screen.getByTestId('file-picker'), {
      target: { files: [new File(['x'], 'notes.txt')] },
    })
    await waitFor(() => expect(uploads.map((upload) => upload.productId)).toEqual([3]))
    fireEvent.click(screen.getByRole('combobox', { name: 'Product' }))
    const list = await screen.findByRole('listbox', { name: 'Product' })
    expect(
      within(list)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Any product', 'Company-wide (All products)', 'Catalog'])
    fireEvent.click(within(list).getByRole('option', { name: 'Company-wide (All products)' }))
    await waitFor(() => expect(queries.at(-1)?.product).toBe('none'))
  })

  it('with no products the repository asks nothing about them', async () => {
    const { logic } = repository([])
    renderInSession(<RepositoryPage logic={logic} />)
    expect(await screen.findByText('Policy.pdf')).toBeTruthy()
    expect(screen.queryByRole('combobox', { name: 'Speaks for' })).toBeNull()
    expect(screen.queryByRole('combobox', { name: 'Product' })).toBeNull()
  })

  it('the Q&A list filters by product, and the editor sets an answer’s product', async () => {
    const { logic, queries, saved } = knowledge([catalog], [qaItemOf({ id: 5, product_id: 3 })])
    renderInSession(<KnowledgeBasePage logic={logic} />)
    await screen.findByRole('combobox', { name: 'Product' })
    expect(within(await screen.findByTestId('kb-item')).getByTitle('Speaks for').textContent).toBe(
      'Speaks for: Catalog',
    )
    await chooseOption('Product', 'Catalog')
    await waitFor(() => expect(queries.at(-1)).toMatchObject({ kind: 'qa', product: 3 }))
    fireEvent.click(screen.getByRole('button', { name: /Add Q&A/ }))
    const dialog = await screen.findByRole('dialog')
    fireEvent.change(within(dialog).getByLabelText(/Question/), {
      target: { value: 'Does Catalog encrypt?' },
    })
    fireEvent.change(within(dialog).getByLabelText(/Answer/), { target: { value: 'Yes.' } })
    await chooseOption('Speaks for', 'Catalog', dialog)
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(saved.at(-1)?.body).toMatchObject({ product_id: 3 }))
  })
})
