import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { fromCallback, fromPromise } from 'xstate'
import type { Customer, CustomerCreate, CustomerPage } from '../../contract/collaboration.ts'
import type { Product } from '../../contract/products.ts'
import type { Questionnaire } from '../../contract/questionnaires.ts'
import type { OwnerChoices } from '../../machines/owner-choices/index.ts'
import type { AssignProductInput } from '../../machines/product-choice/index.ts'
import type {
  QuestionnaireFilters,
  QuestionnaireListEvents,
  UploadInput,
} from '../../machines/questionnaire-list/index.ts'
import type { SaveWorkInput } from '../../machines/work-details/index.ts'
import { createQuestionnairesLogic } from '../../src/api/work-actors.ts'
import { SessionContext } from '../../src/app/session.tsx'
import { ToasterContext } from '../../src/app/toaster.tsx'
import QuestionnairesPage from '../../src/pages/questionnaires/questionnaires-page.tsx'
import { questionnaireOf } from '../fixtures/answer-rows.ts'
import { productOf } from '../fixtures/products.ts'
import { chooseOption } from '../support/choose-option.ts'
import { readingSession } from '../support/ui-session.ts'

// links render without a router
vi.mock('@tanstack/react-router', () => import('../support/router-stub.tsx'))

const noProducts = {
  loadProductChoices: fromPromise<Product[], void>(async () => []),
  assignProduct: fromPromise<void, AssignProductInput>(async () => {}),
}
const catalog = productOf(3, 'Catalog')

const logic = (
  items: Questionnaire[],
  deleted: number[][] = [],
  products = noProducts,
  uploads: UploadInput[] = [],
  asked: QuestionnaireFilters[] = [],
) =>
  createQuestionnairesLogic(
    {
      loadQuestionnaires: fromPromise<
        { count: number; results: Questionnaire[] },
        QuestionnaireFilters
      >(async ({ input }) => {
        asked.push(input)
        return { count: items.length, results: items }
      }),
      deleteQuestionnaires: fromPromise<number, { ids: number[] }>(async ({ input }) => {
        deleted.push(input.ids)
        return input.ids.length
      }),
      uploadQuestionnaire: fromCallback<QuestionnaireListEvents, UploadInput>(
        ({ input, sendBack }) => {
          uploads.push(input)
          sendBack({
            type: 'upload.failed',
            key: input.key,
            error: 'Your license limits the number of questionnaires to 5.',
          })
        },
      ),
      saveWork: fromPromise<Questionnaire, SaveWorkInput>(() => new Promise(() => {})),
      loadCustomers: fromPromise<Customer[], void>(async () => []),
      createCustomer: fromPromise<CustomerPage, CustomerCreate>(() => new Promise(() => {})),
      loadCustomer: fromPromise<CustomerPage, { id: number }>(() => new Promise(() => {})),
      loadOwnerChoices: fromPromise<OwnerChoices, void>(async () => ({
        people: null,
        reviewCycleDays: null,
      })),
    },
    products,
  )

const renderPage = (machine: ReturnType<typeof logic>) =>
  render(
    <SessionContext.Provider logic={readingSession}>
      <ToasterContext.Provider>
        <QuestionnairesPage logic={machine} />
      </ToasterContext.Provider>
    </SessionContext.Provider>,
  )

describe('questionnaires page', () => {
  it('shows the empty state with the upload button', async () => {
    renderPage(logic([]))
    expect(await screen.findByText('No questionnaires yet')).toBeTruthy()
    expect(screen.getAllByRole('button', { name: 'Upload questionnaire' }).length).toBeGreaterThan(
      0,
    )
  })

  it('lists questionnaires with status, counts and failures, and deletes behind a confirmation', async () => {
    const deleted: number[][] = []
    renderPage(
      logic(
        [
          questionnaireOf({
            id: 1,
            name: 'CAIQ.xlsx',
            questions: 261,
            answered: 200,
            approved: 12,
          }),
          questionnaireOf({
            id: 2,
            name: 'Broken.pdf',
            status: 'failed',
            error: 'The PDF is password-protected',
          }),
        ],
        deleted,
      ),
    )
    const rows = await screen.findAllByTestId('questionnaire-row')
    expect(rows).toHaveLength(2)
    expect(within(rows[0] as HTMLElement).getByText('261')).toBeTruthy()
    expect(within(rows[1] as HTMLElement).getByText('The PDF is password-protected')).toBeTruthy()
    fireEvent.click(within(rows[0] as HTMLElement).getByRole('checkbox'))
    fireEvent.click(screen.getByRole('button', { name: /Delete selected/ }))
    const confirm = await screen.findByRole('alertdialog')
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(deleted).toEqual([[1]]))
  })

  it('shows a refused upload in the server’s words', async () => {
    renderPage(logic([]))
    await screen.findByText('No questionnaires yet')
    const picker = screen.getByTestId('questionnaire-picker') as HTMLInputElement
    // Ark's file upload reads the input's `input` event (a browser fires it with `change`)
    fireEvent.input(picker, {
      target: { files: [new File(['x'], 'vendor.xlsx')] },
    })
    expect(
      await screen.findByText('Your license limits the number of questionnaires to 5.'),
    ).toBeTruthy()
  })

  it('asks which product a questionnaire is for, only when the organisation has products', async () => {
    const uploads: UploadInput[] = []
    renderPage(
      logic(
        [],
        [],
        { ...noProducts, loadProductChoices: fromPromise(async () => [catalog]) },
        uploads,
      ),
    )
    const select = await screen.findByRole('combobox', { name: 'Answer for' })
    expect(select.textContent).toBe('All products')
    fireEvent.click(select)
    fireEvent.click(await screen.findByRole('option', { name: 'Catalog' }))
    await waitFor(() => expect(select.textContent).toBe('Catalog'))
    fireEvent.input(screen.getByTestId('questionnaire-picker'), {
      target: { files: [new File(['x'], 'vendor.xlsx')] },
    })
    await waitFor(() => expect(uploads.map((upload) => upload.productId)).toEqual([3]))
  })

  it('hides the product choice when there are no products', async () => {
    renderPage(logic([]))
    expect(await screen.findByText('No questionnaires yet')).toBeTruthy()
    expect(screen.queryByRole('combobox', { name: 'Answer for' })).toBeNull()
  })

  it('says which product each questionnaire is answered for', async () => {
    renderPage(
      logic(
        [
          questionnaireOf({ id: 7, name: 'Catalog review.xlsx', product_id: 3 }),
          questionnaireOf({ id: 8, name: 'Company review.xlsx', product_id: null }),
        ],
        [],
        { ...noProducts, loadProductChoices: fromPromise(async () => [catalog]) },
      ),
    )
    const row = (await screen.findByText('Catalog review.xlsx')).closest('tr') as HTMLElement
    await waitFor(() =>
      expect(within(row).getByTitle('Answered for').textContent).toBe('Answered for: Catalog'),
    )
    const other = screen.getByText('Company review.xlsx').closest('tr') as HTMLElement
    expect(within(other).queryByTitle('Answered for')).toBeNull()
  })

  it('filters the list by product', async () => {
    const asked: QuestionnaireFilters[] = []
    renderPage(
      logic(
        [questionnaireOf({ id: 7, name: 'Catalog review.xlsx', product_id: 3 })],
        [],
        { ...noProducts, loadProductChoices: fromPromise(async () => [catalog]) },
        [],
        asked,
      ),
    )
    await screen.findByRole('combobox', { name: 'Product' })
    await chooseOption('Product', 'Company-wide (All products)')
    await waitFor(() => expect(asked.at(-1)?.product).toBe('none'))
  })
})
