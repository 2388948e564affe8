import { expect, type Page, test } from '@playwright/test'
import { makeCsv, makeDocx, makePdf, makeXlsx } from '../tests/fixtures/documents.ts'
import { SITE_URL } from './support/env.ts'
import { signIn } from './support/session.ts'
import { SITE_PAGE_PATH, SITE_PAGE_SENTENCE, SITE_PAGE_TITLE } from './support/site.ts'

const PDF_SENTENCE = 'Quarterly access reviews are signed off by the security officer.'

async function uploadFiles(
  page: Page,
  files: { name: string; mimeType: string; buffer: Buffer }[],
) {
  await page.getByTestId('file-picker').setInputFiles(files)
}

test.describe('repository and knowledge base', () => {
  test.describe.configure({ mode: 'serial' })

  test('upload three files of different types and watch them become ready', async ({
    page,
    request,
  }) => {
    await signIn(page, request)
    await page.goto('/repository')
    await expect(page.getByTestId('page-title').filter({ hasText: 'Repository' })).toBeVisible()
    await uploadFiles(page, [
      {
        name: 'Access policy.pdf',
        mimeType: 'application/pdf',
        buffer: await makePdf([['Access control policy'], [PDF_SENTENCE]]),
      },
      {
        name: 'Handbook.docx',
        mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        buffer: makeDocx([
          { heading: 'Laptops' },
          { paragraph: 'Every laptop uses full-disk encryption.' },
        ]),
      },
      {
        name: 'Vendor answers.csv',
        mimeType: 'text/csv',
        buffer: makeCsv([
          { question: 'Do you run background checks?', answer: 'Yes, for all staff.' },
        ]),
      },
    ])
    const rows = page.getByTestId('file-row')
    await expect(rows).toHaveCount(3, { timeout: 15_000 })
    for (const name of ['Access policy.pdf', 'Handbook.docx', 'Vendor answers.csv']) {
      await expect(rows.filter({ hasText: name }).getByText('Ready')).toBeVisible({
        timeout: 20_000,
      })
    }
    await page.screenshot({
      path: 'test-results/screens/repository-files-1440.png',
      fullPage: true,
    })
    await page.setViewportSize({ width: 375, height: 812 })
    await page.screenshot({ path: 'test-results/screens/repository-files-375.png', fullPage: true })
    await page.setViewportSize({ width: 1440, height: 900 })
  })

  test('the Q&A tab shows the rows of a completed questionnaire in the repository, with its file', async ({
    page,
    request,
  }) => {
    await signIn(page, request)
    await page.goto('/knowledge-base')
    const section = page.getByRole('region', { name: 'From completed questionnaires' })
    const row = section.getByTestId('answered-row').filter({
      hasText: 'Do you run background checks?',
    })
    await expect(row).toBeVisible({ timeout: 15_000 })
    await expect(row).toContainText('Yes, for all staff.')
    await expect(row.getByRole('button', { name: 'Download Vendor answers.csv' })).toBeVisible()
    // one search box (issue 30): its results stand in for the sections until it is cleared
    await expect(page.getByRole('searchbox')).toHaveCount(1)
    const search = page.getByRole('searchbox', { name: 'Search the knowledge base' })
    await search.fill('background checks')
    await expect(page.getByTestId('search-result').first()).toContainText('Vendor answers.csv')
    await expect(section).toBeHidden()
    await search.fill('')
    await expect(row).toBeVisible()
    await page.screenshot({ path: 'test-results/screens/kb-answered-1440.png', fullPage: true })
    await page.setViewportSize({ width: 375, height: 812 })
    await expect(row).toBeVisible()
    await page.screenshot({ path: 'test-results/screens/kb-answered-375.png', fullPage: true })
    await page.setViewportSize({ width: 1440, height: 900 })
  })

  test('add a page by URL from a local site', async ({ page, request }) => {
    await signIn(page, request)
    await page.goto('/repository')
    await page.getByRole('button', { name: 'Add by URL' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel('URL').fill(`${SITE_URL}${SITE_PAGE_PATH}`)
    await dialog.getByRole('button', { name: 'Add' }).click()
    await expect(dialog).toBeHidden()
    const row = page.getByTestId('file-row').filter({ hasText: SITE_PAGE_TITLE })
    await expect(row.getByText('Ready')).toBeVisible({ timeout: 20_000 })
  })

  test('search finds a sentence from a PDF and opens its source', async ({ page, request }) => {
    await signIn(page, request)
    await page.goto('/knowledge-base')
    await page
      .getByRole('searchbox', { name: 'Search the knowledge base' })
      .fill('access reviews signed off')
    const first = page.getByTestId('search-result').first()
    await expect(first).toContainText('Access policy.pdf')
    await expect(first).toContainText('page 2')
    await expect(first.locator('mark').first()).toBeVisible()
    const download = page.waitForEvent('download')
    await first.getByRole('button', { name: 'Access policy.pdf' }).click()
    expect((await download).suggestedFilename()).toBe('Access policy.pdf')
    // the fetched page is searchable too
    await page
      .getByRole('searchbox', { name: 'Search the knowledge base' })
      .fill('rotates production encryption key')
    await expect(page.getByTestId('search-result').first()).toContainText(
      SITE_PAGE_SENTENCE.slice(0, 20),
    )
    await page.screenshot({
      path: 'test-results/screens/knowledge-search-1440.png',
      fullPage: true,
    })
  })

  test('import Q&A from an XLSX with the mapping preview', async ({ page, request }) => {
    await signIn(page, request)
    await page.goto('/knowledge-base')
    await page.getByRole('button', { name: 'Import Q&A' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel('Questionnaire file').setInputFiles({
      name: 'Completed HECVAT.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: await makeXlsx([
        {
          question: 'Is MFA enforced for administrators?',
          answer: 'Yes',
          comment: 'Hardware security keys for every admin',
        },
        {
          question: 'Do you keep audit logs for a year?',
          answer: 'Yes',
          comment: 'Stored in write-once storage',
        },
      ]),
    })
    await expect(dialog.getByRole('table', { name: 'Preview' })).toContainText(
      'Is MFA enforced for administrators?',
    )
    await expect(dialog.getByRole('combobox', { name: 'Question column' })).toHaveText(/^B\b/)
    await page.screenshot({ path: 'test-results/screens/knowledge-import-1440.png' })
    await dialog.getByRole('button', { name: 'Import' }).click()
    await expect(dialog.getByRole('status')).toHaveText(/Imported: 2 added, 0 updated/)
    await dialog.getByRole('button', { name: 'Done' }).click()
    const items = page.getByTestId('kb-item')
    await expect(items.filter({ hasText: 'Is MFA enforced for administrators?' })).toContainText(
      'Hardware security keys',
    )
    await page.screenshot({ path: 'test-results/screens/knowledge-qa-1440.png', fullPage: true })
    await page.setViewportSize({ width: 375, height: 812 })
    await page.screenshot({ path: 'test-results/screens/knowledge-qa-375.png', fullPage: true })
  })

  test('add, edit and delete a data item', async ({ page, request }) => {
    await signIn(page, request)
    await page.goto('/knowledge-base')
    await page.getByRole('tab', { name: 'Data' }).click()
    await page.getByRole('button', { name: 'Add data item' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await expect(dialog.getByText('Enter a title')).toBeVisible()
    await dialog.getByLabel('Title').fill('Data-centre regions')
    await dialog.getByLabel('Value').fill('Frankfurt and Dublin')
    await dialog.getByRole('button', { name: 'Save' }).click()
    const item = page.getByTestId('kb-item').filter({ hasText: 'Data-centre regions' })
    await expect(item).toContainText('Frankfurt and Dublin')
    await item.getByRole('button', { name: 'Actions for Data-centre regions' }).click()
    await page.getByRole('menuitem', { name: 'Delete' }).click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click()
    await expect(item).toHaveCount(0)
  })

  test('batch delete behind a confirmation', async ({ page, request }) => {
    await signIn(page, request)
    await page.goto('/repository')
    await expect(page.getByTestId('file-row').first()).toBeVisible()
    await page.getByLabel('Select all files').check()
    await page.getByRole('button', { name: /Delete selected/ }).click()
    const confirm = page.getByRole('alertdialog')
    await expect(confirm).toContainText(/Delete \d+ files\?/)
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await expect(page.getByText('No documents yet')).toBeVisible()
  })
})
