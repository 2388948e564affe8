import { expect, test } from '@playwright/test'
import ExcelJS from 'exceljs'
import { shotAtBothWidths } from './support/screens.ts'
import {
  postQuestionnaire,
  signInAndPost,
  signInWithToken,
  yesNoWorkbook,
} from './support/workspace.ts'

/**
 * The reviewer's day (issue 39): last year's completed questionnaire imported as one (its
 * explanations the answers, its section headers left out, its rows dated by the workbook), and an
 * answer that lacks what the customer's cells take shown as such before it is approved.
 */

async function lastYearsWorkbook(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook()
  const sheet = workbook.addWorksheet('Vendor Response')
  sheet.addRow(['Vendor Response', 'Vendor Response', 'Vendor Response', 'Vendor Response'])
  sheet.addRow(['DATE-01', 'Date', '2024-05-02'])
  sheet.addRow(['Qualifiers', 'Qualifiers', 'Vendor Answers', 'Additional Information'])
  sheet.addRow(['QUAL-01', 'Do you have a business continuity plan?', 'Yes', 'Tested every year.'])
  sheet.addRow(['Company', 'Company', 'Vendor Answers', 'Additional Information'])
  sheet.addRow([
    'COMP-01',
    'Do you have a security office?',
    'Yes',
    'Six people report to the CISO.',
  ])
  return Buffer.from(await workbook.xlsx.writeBuffer())
}

test('import last year’s questionnaire as one, then approve an answer knowing what it lacks', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000)
  const headers = await signInWithToken(page, request)
  await page.goto('/knowledge-base')
  await page.getByRole('button', { name: 'Import Q&A' }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByLabel('Questionnaire file').setInputFiles({
    name: 'HECVAT 2024.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: await lastYearsWorkbook(),
  })
  await expect(dialog.getByText(/^Answered on .*2024/)).toBeVisible()
  await expect(dialog.getByRole('combobox', { name: 'Answer column' })).toHaveText(/^D\b/)
  await expect(dialog.getByRole('combobox', { name: 'Dropdown value column' })).toHaveText(/^C\b/)
  await dialog.getByText('1 row left out with the suggested columns').click()
  await expect(dialog.getByText(/Row 5 “Company”: A section’s header row/)).toBeVisible()
  await shotAtBothWidths(page, 'import-completed')
  await dialog.getByRole('button', { name: 'Import' }).click()
  await expect(dialog.getByRole('status')).toHaveText(
    /Imported: 2 added, 0 updated, 1 rows skipped/,
  )
  await dialog.getByRole('button', { name: 'Done' }).click()
  await expect(
    page.getByTestId('kb-item').filter({ hasText: 'Do you have a security office?' }),
  ).toContainText('Six people report to the CISO.')

  // an answer with a value and no explanation, where the file has a column for one
  const id = await postQuestionnaire(
    request,
    headers,
    'Customer review.xlsx',
    await yesNoWorkbook('Security', [['SEC-01', 'Do you rotate encryption keys?']]),
  )
  await page.goto(`/questionnaire/${id}`)
  // the license notice of spec section 2, once per browser session
  const notice = page.getByRole('dialog', { name: 'License Limitation' })
  await notice.getByRole('button', { name: 'OK' }).click()
  await expect(notice).toBeHidden()
  const grid = page.getByRole('listbox', { name: 'Questions of Security' })
  await grid.getByRole('option').first().click({ timeout: 20_000 })
  const panel = page.getByRole('region', { name: 'Answer' })
  await panel.getByRole('button', { name: 'Edit' }).click()
  await panel.getByRole('combobox', { name: 'Answer value' }).click()
  await panel.getByRole('option', { name: 'Yes', exact: true }).click()
  await panel.getByRole('button', { name: 'Save' }).click()
  // the person's answer is theirs, and what it lacks is said before the click
  await expect(panel.getByTestId('answer-origin')).toHaveText(/^Written by /)
  await expect(panel.getByTestId('answer-missing')).toContainText(
    'no explanation for the text column',
  )
  await expect(panel.getByText(/confidence ·/)).toHaveCount(0)
  await shotAtBothWidths(page, 'answer-incomplete')
  await panel.getByRole('button', { name: 'Approve as it is' }).click()
  await expect(panel.getByText('Approved', { exact: true })).toBeVisible()
  await expect(panel.getByTestId('answer-missing')).toHaveCount(0)
})

test('the upload asks whom the questionnaire is for, when it is due and who owns it; the header shows them', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000)
  await signInWithToken(page, request)
  await page.goto('/questionnaires')
  const about = page.getByRole('group', { name: 'About the questionnaires you upload next' })
  await about.getByLabel('Customer').fill('Northwind Health')
  await about.getByLabel('Due date').fill('2031-02-14')
  await about.getByRole('combobox', { name: 'Owner' }).click()
  await page.getByRole('option', { name: /\(you\)$/ }).click()
  await shotAtBothWidths(page, 'upload-asks-work')
  await page.getByTestId('questionnaire-picker').setInputFiles({
    name: 'Northwind review.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: await yesNoWorkbook('Security', [['SEC-01', 'Do you rotate encryption keys?']]),
  })
  const row = page.getByTestId('questionnaire-row').filter({ hasText: 'Northwind review.xlsx' })
  await expect(row).toContainText('Northwind Health', { timeout: 30_000 })
  await row.getByRole('link', { name: 'Northwind review.xlsx' }).click()
  const notice = page.getByRole('dialog', { name: 'License Limitation' })
  await notice.getByRole('button', { name: 'OK' }).click()
  await expect(page.getByTestId('customer-line')).toHaveText('Northwind Health')
  await expect(page.getByRole('heading', { name: 'Northwind review.xlsx' })).toBeVisible()
  await expect(page.getByTestId('due-date')).toHaveText('Due Feb 14, 2031')
  await expect(page.getByText(/^owned by /)).toBeVisible()
  await shotAtBothWidths(page, 'questionnaire-header-work')
})

test('a file that arrives with answers keeps them, and the export says what it will write', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000)
  const { id } = await signInAndPost(page, request, {
    name: 'Half done.xlsx',
    workbook: await yesNoWorkbook('Security', [
      ['SEC-01', 'Do you encrypt backups?', 'Yes', 'AES-256, keys held in a KMS.'],
      ['SEC-02', 'Do you run a bug bounty?'],
    ]),
  })
  await page.goto(`/questionnaire/${id}`)
  await page
    .getByRole('dialog', { name: 'License Limitation' })
    .getByRole('button', { name: 'OK' })
    .click()
  await expect(page.getByText(/1 answered \(50%\)/)).toBeVisible({ timeout: 20_000 })
  const grid = page.getByRole('listbox', { name: 'Questions of Security' })
  const kept = grid.getByRole('option').filter({ hasText: 'Do you encrypt backups?' })
  await expect(kept).toContainText('In the file')
  await kept.click()
  const panel = page.getByRole('region', { name: 'Answer' })
  await expect(panel.getByTestId('answer-text')).toHaveText('AES-256, keys held in a KMS.')
  await expect(panel.getByTestId('answer-origin')).toHaveText(/^In the file as it arrived/)
  await page.getByRole('button', { name: 'Export' }).click()
  await expect(page.getByTestId('export-counts')).toHaveText(
    'Approved 0 · Not reviewed 1 · Empty 1',
  )
  await expect(
    page.getByRole('menuitem', { name: 'Fill with approved answers only' }),
  ).toBeVisible()
  await shotAtBothWidths(page, 'export-choices')
})
