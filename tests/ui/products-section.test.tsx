import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fromPromise } from 'xstate'
import type { Product } from '../../contract/products.ts'
import type { SaveProductInput } from '../../machines/products/index.ts'
import { ToasterContext } from '../../src/app/toaster.tsx'
import { createProductsLogic, ProductsSection } from '../../src/pages/settings/products-section.tsx'
import { productOf } from '../fixtures/products.ts'

const studio = productOf(4, 'Canvas Studio', {
  aliases: ['Studio', 'Arc'],
  description: 'Video platform',
  files: 2,
  qa_items: 1,
})

function renderSection(products: Product[], canManage: boolean) {
  const saved: SaveProductInput[] = []
  const deleted: number[] = []
  const logic = createProductsLogic({
    loadProducts: fromPromise<Product[], void>(async () => products),
    saveProduct: fromPromise<Product, SaveProductInput>(async ({ input }) => {
      saved.push(input)
      if (input.id === null && input.body.name === 'Canvas Studio')
        throw new Error('A product with that name already exists.')
      return { ...studio, id: 9, ...input.body, files: 0, qa_items: 0 }
    }),
    deleteProduct: fromPromise<void, { id: number }>(async ({ input }) => {
      deleted.push(input.id)
    }),
  })
  render(
    <ToasterContext.Provider>
      <ProductsSection logic={logic} canManage={canManage} />
    </ToasterContext.Provider>,
  )
  return { saved, deleted }
}

describe('ProductsSection', () => {
  it('explains what products are for while there are none', async () => {
    renderSection([], true)
    expect(await screen.findByText('No products yet')).toBeTruthy()
    expect(
      screen.getByText(/Quire answers each questionnaire for one product: answers from another/),
    ).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Add product' })).toBeTruthy()
  })

  it('lists each product with its aliases and what speaks for it; read-only without library.manage', async () => {
    renderSection([studio], false)
    const list = await screen.findByRole('list', { name: 'Products' })
    expect(within(list).getByText('Canvas Studio')).toBeTruthy()
    expect(within(list).getByText('Video platform')).toBeTruthy()
    expect(within(list).getByText('Arc')).toBeTruthy()
    const speaks = within(list).getByLabelText('What speaks for Canvas Studio')
    expect([...speaks.children].map((part) => part.textContent)).toEqual([
      '2 files',
      '1 library answer',
      '0 questionnaires',
    ])
    expect(screen.queryByRole('button', { name: 'Add product' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Actions for Canvas Studio' })).toBeNull()
  })

  it('adds a product with aliases as chips, and shows a refusal in the server’s words', async () => {
    const { saved } = renderSection([studio], true)
    fireEvent.click(await screen.findByRole('button', { name: 'Add product' }))
    const dialog = await screen.findByRole('dialog')
    fireEvent.change(within(dialog).getByLabelText(/Name/), { target: { value: 'Canvas Studio' } })
    fireEvent.change(within(dialog).getByLabelText('Aliases'), {
      target: { value: 'Books, Shelf' },
    })
    expect(within(dialog).getByTestId('alias-chips').textContent).toBe('BooksShelf')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add product' }))
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'A product with that name already exists.',
    )
    fireEvent.change(within(dialog).getByLabelText(/Name/), { target: { value: 'Catalog' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add product' }))
    await waitFor(() => expect(screen.getByText('Catalog')).toBeTruthy())
    expect(saved.at(-1)).toEqual({
      id: null,
      body: { name: 'Catalog', aliases: ['Books', 'Shelf'], description: '' },
    })
  })

  it('asks before deleting, saying what spoke for it becomes All products', async () => {
    const { deleted } = renderSection([studio], true)
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for Canvas Studio' }))
    fireEvent.click(await screen.findByRole('menuitem', { name: /Delete/ }))
    const dialog = await screen.findByRole('alertdialog')
    expect(dialog.textContent).toContain('becomes “All products”')
    expect(dialog.textContent).toContain('2 files, 1 library answer, 0 questionnaires')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete product' }))
    await waitFor(() => expect(deleted).toEqual([4]))
  })

  it('edits a product from its row, starting from what it is', async () => {
    const { saved } = renderSection([studio], true)
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for Canvas Studio' }))
    fireEvent.click(await screen.findByRole('menuitem', { name: /Edit/ }))
    const dialog = await screen.findByRole('dialog', { name: 'Edit product' })
    expect((within(dialog).getByLabelText('Aliases') as HTMLInputElement).value).toBe('Studio, Arc')
    fireEvent.change(within(dialog).getByLabelText('Description'), {
      target: { value: 'Video for teaching' },
    })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() =>
      expect(saved.at(-1)).toEqual({
        id: 4,
        body: {
          name: 'Canvas Studio',
          aliases: ['Studio', 'Arc'],
          description: 'Video for teaching',
        },
      }),
    )
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(screen.getByText('Video for teaching')).toBeTruthy()
  })
})
