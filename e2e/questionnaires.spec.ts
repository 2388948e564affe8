import { expect, test } from '@playwright/test'
import { makeQuestionnaireXlsx } from '../tests/fixtures/questionnaires.ts'
import { signIn } from './support/session.ts'

test('upload a questionnaire, watch it analysed, open it, and delete it', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000)
  await signIn(page, request)
  await page.goto('/questionnaires')
  await expect(page.getByTestId('page-title').filter({ hasText: 'Questionnaires' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'No questionnaires yet' })).toBeVisible()
  await page.screenshot({ path: 'test-results/screens/questionnaires-empty-1440.png' })

  // a file that is not a questionnaire is refused in plain words, before any request
  await page.getByTestId('questionnaire-picker').setInputFiles([
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('notes') },
    {
      name: 'Vendor review.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: await makeQuestionnaireXlsx({ custom: true }),
    },
  ])
  await expect(
    page.getByRole('alert').filter({ hasText: 'notes.txt is not a supported questionnaire' }),
  ).toBeVisible()
  const row = page.getByTestId('questionnaire-row').filter({ hasText: 'Vendor review.xlsx' })
  await expect(row.getByText('Ready')).toBeVisible({ timeout: 20_000 })
  await expect(row.getByRole('cell', { name: '11', exact: true })).toBeVisible()
  await page.getByRole('button', { name: 'Dismiss notes.txt' }).click()
  await page.screenshot({ path: 'test-results/screens/questionnaires-1440.png', fullPage: true })
  await page.setViewportSize({ width: 375, height: 812 })
  await page.screenshot({ path: 'test-results/screens/questionnaires-375.png', fullPage: true })
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  )
  expect(overflow).toBeLessThanOrEqual(0)
  await page.setViewportSize({ width: 1440, height: 900 })

  await row.getByRole('link', { name: 'Vendor review.xlsx' }).click()
  await expect(page).toHaveURL(/\/questionnaire\/\d+$/)
  await page
    .getByRole('dialog', { name: 'License Limitation' })
    .getByRole('button', { name: 'OK' })
    .click()
  await expect(page.getByRole('heading', { name: 'Vendor review.xlsx' })).toBeVisible()
  await page.goBack()

  await row.getByRole('checkbox').check()
  await page.getByRole('button', { name: /Delete selected/ }).click()
  const confirm = page.getByRole('alertdialog')
  await expect(confirm).toContainText('Delete this questionnaire?')
  await confirm.getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByRole('heading', { name: 'No questionnaires yet' })).toBeVisible()
})
