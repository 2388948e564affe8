import { expect, type Page, test } from '@playwright/test'
import { makeQuestionnaireXlsx } from '../tests/fixtures/questionnaires.ts'
import { newAccount, registerAndConfirm } from './support/accounts.ts'
import { docsShot as shot } from './support/screens.ts'

/**
 * Products (issue 38), as a team that sells two meets them: Settings → Products explains what they
 * are for, two are added, a questionnaire is uploaded for one of them, and its workspace says so
 * and changes it. Settings → Products and the upload with its product choice are kept in
 * docs/screens/ at 1440 and 375 px.
 */

/** Adds a product in Settings → Products through its dialog. */
async function addProduct(page: Page, name: string, aliases: string, description: string) {
  await page.getByRole('button', { name: 'Add product' }).first().click()
  const dialog = page.getByRole('dialog', { name: 'Add a product' })
  await dialog.getByLabel('Name').fill(name)
  await dialog.getByLabel('Aliases').fill(aliases)
  await dialog.getByLabel('Description').fill(description)
  await dialog.getByRole('button', { name: 'Add product' }).click()
  await expect(dialog).toBeHidden()
  await expect(
    page.getByRole('list', { name: 'Products' }).getByText(name, { exact: true }),
  ).toBeVisible()
}

test('a team adds its products, uploads a questionnaire for one, and sees it in the workspace', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const notice = page.getByRole('dialog', { name: 'License Limitation' })
  await page.addLocatorHandler(notice, async () => {
    await notice.getByRole('button', { name: 'OK' }).click()
  })
  const account = newAccount('products')
  await registerAndConfirm(page, account)

  await page.goto('/settings/products')
  await expect(page.getByRole('link', { name: 'Products' })).toHaveAttribute('aria-current', 'page')
  await expect(page.getByText('No products yet')).toBeVisible()
  await expect(
    page.getByText(/Quire answers each questionnaire for one product: answers from another/),
  ).toBeVisible()
  await shot(page, 'settings-products-empty')

  await addProduct(
    page,
    'Canvas Catalog',
    'Catalog, Course Catalog',
    'Course catalog and enrolment',
  )
  // (read again: the screenshots show no toast)
  await page.reload()
  // a name already taken is refused in the server's words, and the dialog stays
  await page.getByRole('button', { name: 'Add product' }).first().click()
  const dialog = page.getByRole('dialog', { name: 'Add a product' })
  await dialog.getByLabel('Name').fill('canvas catalog')
  await dialog.getByRole('button', { name: 'Add product' }).click()
  await expect(dialog.getByRole('alert')).toHaveText('A product with that name already exists.')
  await dialog.getByLabel('Name').fill('Canvas Studio')
  await dialog.getByLabel('Aliases').fill('Studio, Arc')
  await expect(dialog.getByTestId('alias-chips')).toHaveText('StudioArc')
  await shot(page, 'settings-product-dialog')
  await dialog.getByLabel('Description').fill('Video platform for teaching')
  await dialog.getByRole('button', { name: 'Add product' }).click()
  await expect(dialog).toBeHidden()
  await page.reload()
  const products = page.getByRole('list', { name: 'Products' })
  await expect(products.getByRole('listitem').filter({ hasText: 'Canvas Studio' })).toContainText(
    '0 files',
  )
  await shot(page, 'settings-products')
  // on a phone the sideways list of sections shows the current one
  await page.setViewportSize({ width: 375, height: 812 })
  await page.reload()
  await expect(
    page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Products' }),
  ).toBeInViewport({ ratio: 1 })
  await page.setViewportSize({ width: 1440, height: 900 })

  // the repository asks which product files speak for, and filters by it
  await page.goto('/repository')
  await expect(page.getByRole('combobox', { name: 'Speaks for' })).toHaveText('All products')
  await expect(page.getByRole('combobox', { name: 'Product' })).toHaveText('Any product')
  await shot(page, 'repository-upload-product')

  // the questionnaire is uploaded for one product
  await page.goto('/questionnaires')
  const answerFor = page.getByRole('combobox', { name: 'Answer for' })
  await expect(answerFor).toHaveText('All products')
  await answerFor.click()
  await page.getByRole('option', { name: 'Canvas Studio' }).click()
  await expect(answerFor).toHaveText('Canvas Studio')
  await expect(page.getByRole('listbox')).toBeHidden()
  await shot(page, 'questionnaire-upload-product')
  await page.getByTestId('questionnaire-picker').setInputFiles({
    name: 'Studio review.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: await makeQuestionnaireXlsx({ perTab: 3 }),
  })
  const row = page.getByTestId('questionnaire-row').filter({ hasText: 'Studio review.xlsx' })
  await expect(row.getByText('Ready')).toBeVisible({ timeout: 30_000 })
  await expect(row.getByTitle('Answered for')).toHaveText('Answered for: Canvas Studio')
  await page.reload()
  await shot(page, 'questionnaires-product')

  // the workspace says which product it is answered for, and changes it
  await row.getByRole('link', { name: 'Studio review.xlsx' }).click()
  await expect(page.getByRole('heading', { name: 'Studio review.xlsx' })).toBeVisible()
  await expect(page.getByText('Answered for')).toBeVisible()
  const product = page.getByRole('combobox', { name: 'Product' })
  await expect(product).toHaveText('Canvas Studio')
  await product.click()
  await page.getByRole('option', { name: 'Canvas Catalog' }).click()
  await expect(product).toHaveText('Canvas Catalog')
  await page.reload()
  await expect(page.getByRole('combobox', { name: 'Product' })).toHaveText('Canvas Catalog')
  await shot(page, 'questionnaire-product')

  // a library answer speaks for one product: set in its editor, said in its row, filtered by
  await page.goto('/knowledge-base')
  await page.getByRole('button', { name: 'Add Q&A' }).click()
  const editor = page.getByRole('dialog', { name: 'Add Q&A item' })
  await editor.getByLabel('Question').fill('Does Catalog keep student records in the EU?')
  await editor.getByLabel('Answer').fill('Yes, in Frankfurt.')
  await editor.getByRole('combobox', { name: 'Speaks for' }).click()
  await page.getByRole('option', { name: 'Canvas Catalog' }).click()
  await expect(page.getByRole('listbox')).toBeHidden()
  await shot(page, 'library-item-product')
  await editor.getByRole('button', { name: 'Save' }).click()
  await expect(editor).toBeHidden()
  const item = page.getByTestId('kb-item').filter({ hasText: 'student records' })
  await expect(item.getByTitle('Speaks for')).toHaveText('Speaks for: Canvas Catalog')

  // Settings counts what speaks for each product
  await page.goto('/settings/products')
  await expect(
    page
      .getByRole('list', { name: 'Products' })
      .getByRole('listitem')
      .filter({ hasText: 'Canvas Catalog' }),
  ).toContainText('1 questionnaire')
})
