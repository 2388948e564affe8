import { expect, type Page, test } from '@playwright/test'
import { makeQuestionnaireXlsx } from '../tests/fixtures/questionnaires.ts'
import { shotAtBothWidths } from './support/screens.ts'
import { signInWithToken } from './support/workspace.ts'

/**
 * A questionnaire as a piece of work (issue 29) and its customer's page (issue 28): set a new
 * customer, a due date already past and a status from the row's work details; the list shows it
 * overdue, the filters find it, and the customer's page lists it under its year. Journeys share
 * one account: everything here is named for this run and looked for by that name.
 */

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

/** Chooses an option of one of the UI kit's selects by its label. */
async function choose(
  page: Page,
  scope: Page | ReturnType<Page['getByRole']>,
  label: string,
  option: string,
) {
  await scope.getByRole('combobox', { name: label }).click()
  await page.getByRole('option', { name: option, exact: true }).click()
}

const noOverflow = async (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)

test('a questionnaire gets a customer, a past due date and a status; it shows overdue, filters find it, its customer lists it by year', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000)
  const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`
  const fileName = `Work ${run}.xlsx`
  const customerName = `Acme ${run}`
  const headers = await signInWithToken(page, request)

  await page.goto('/questionnaires')
  // the first page of a fresh server can be slow to arrive under a full machine's load
  await expect(page.getByTestId('page-title').filter({ hasText: 'Questionnaires' })).toBeVisible({
    timeout: 20_000,
  })
  await page
    .getByTestId('questionnaire-picker')
    .setInputFiles([
      { name: fileName, mimeType: XLSX, buffer: await makeQuestionnaireXlsx({ custom: true }) },
    ])
  const row = page.getByTestId('questionnaire-row').filter({ hasText: fileName })
  await expect(row.getByText('Ready')).toBeVisible({ timeout: 30_000 })
  await expect(row.getByText('Drafting').filter({ visible: true })).toBeVisible()

  // the row's work details: a new customer by name, a due date already past, in review, me
  await row.getByRole('button', { name: `Actions for ${fileName}` }).click()
  await page.getByRole('menuitem', { name: 'Work details…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Work details' })
  await expect(dialog).toContainText(fileName)
  await choose(page, dialog, 'Customer', 'New customer…')
  await dialog.getByLabel('New customer’s name').fill(customerName)
  await choose(page, dialog, 'Status', 'In review')
  await dialog.getByRole('combobox', { name: 'Owner' }).click()
  await page.getByRole('option', { name: /\(you\)$/ }).click()
  await dialog.getByLabel('Requester').fill('Jane Roe')
  await dialog.getByLabel('Due date').fill('2024-01-15')
  await shotAtBothWidths(page, 'work-details')
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(dialog).toBeHidden()

  // the row: its customer, in review, the date in red with "Overdue"
  await expect(row.getByRole('link', { name: `Customer: ${customerName}` })).toBeVisible()
  await expect(row.getByText('In review').filter({ visible: true })).toBeVisible()
  await expect(row.getByText('Overdue').filter({ visible: true })).toBeVisible()
  const dueColour = await row
    .getByTestId('due-date')
    .filter({ visible: true })
    .locator('span')
    .first()
    .evaluate((node) => getComputedStyle(node).color)
  expect(dueColour).not.toBe(
    await row
      .getByRole('link', { name: fileName })
      .evaluate((node) => getComputedStyle(node).color),
  )

  // overdue only: it stays; another status: it goes; its own status: it is back
  await page.getByRole('button', { name: 'Overdue only' }).click()
  await expect(page.getByRole('button', { name: 'Overdue only' })).toHaveAttribute(
    'aria-pressed',
    'true',
  )
  await expect(row).toBeVisible()
  // the list's filters (the upload's own fields stand above it)
  const filters = page
    .locator('fieldset')
    .filter({ has: page.getByRole('combobox', { name: 'Status' }) })
  await choose(page, filters, 'Status', 'Approved')
  await expect(row).toBeHidden()
  await choose(page, filters, 'Status', 'In review')
  await expect(row).toBeVisible()
  await choose(page, filters, 'Customer', customerName)
  await expect(row).toBeVisible()
  await expect(page.getByTestId('questionnaire-row')).toHaveCount(1)
  await shotAtBothWidths(page, 'questionnaires-work')
  await page.setViewportSize({ width: 375, height: 812 })
  expect(await noOverflow(page)).toBeLessThanOrEqual(0)
  await page.setViewportSize({ width: 1440, height: 900 })
  await page.getByRole('button', { name: 'Clear filters' }).first().click()
  await expect(page.getByRole('button', { name: 'Overdue only' })).toHaveAttribute(
    'aria-pressed',
    'false',
  )

  // the customer's page: this year's submission
  await row.getByRole('link', { name: `Customer: ${customerName}` }).click()
  await expect(page).toHaveURL(/\/customers\/\d+$/)
  await expect(page.getByRole('heading', { name: customerName, level: 2 })).toBeVisible()
  const year = page.getByTestId('customer-year').filter({
    has: page.getByRole('heading', { name: String(new Date().getFullYear()) }),
  })
  const entry = year.getByTestId('customer-questionnaire').filter({ hasText: fileName })
  await expect(entry).toBeVisible()
  await expect(entry).toContainText('In review')
  await expect(entry).toContainText('Overdue')
  await expect(entry).toContainText('0 of 11 approved')
  await shotAtBothWidths(page, 'customer-page')
  await page.setViewportSize({ width: 375, height: 812 })
  expect(await noOverflow(page)).toBeLessThanOrEqual(0)
  await page.setViewportSize({ width: 1440, height: 900 })

  // the customers list; a second customer of the same name is refused
  await page.getByRole('link', { name: 'Customers' }).click()
  await expect(page.getByTestId('page-title').filter({ hasText: 'Customers' })).toBeVisible()
  const customerRow = page.getByTestId('customer-row').filter({ hasText: customerName })
  await expect(customerRow.getByRole('cell', { name: '1', exact: true })).toBeVisible()
  await shotAtBothWidths(page, 'customers-list')
  await page.getByRole('button', { name: 'New customer' }).click()
  const create = page.getByRole('dialog', { name: 'New customer' })
  await create.getByLabel('Name').fill(customerName)
  await create.getByLabel('Domain').fill(`${run}.example.com`)
  await create.getByRole('button', { name: 'Add customer' }).click()
  await expect(create.getByRole('alert')).toHaveText('A customer with that name already exists.')
  await shotAtBothWidths(page, 'customers-new')
  await create.getByRole('button', { name: 'Cancel' }).click()
  await customerRow.getByRole('link', { name: customerName }).click()
  await entry.getByRole('link', { name: fileName }).click()
  await expect(page).toHaveURL(/\/questionnaire\/\d+$/)

  // leave the shared account's list as it was
  const id = Number(new URL(page.url()).pathname.split('/').at(-1))
  const removed = await request.post('/api/v1/filler/questionnaires/batch-delete/', {
    headers,
    data: { file_ids: [id] },
  })
  expect(removed.ok()).toBe(true)
})
