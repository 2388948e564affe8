import { expect, test } from '@playwright/test'
import { sql } from './support/db.ts'
import { signIn } from './support/session.ts'

test.describe('support ticket', () => {
  test('the Support button sends a ticket; the draft survives closing and a failure', async ({
    page,
    request,
  }) => {
    const account = await signIn(page, request)
    await page.goto('/')
    await page.getByRole('button', { name: 'Support' }).click()
    const dialog = page.getByRole('dialog')
    await expect(dialog.getByRole('heading', { name: 'Submit a ticket' })).toBeVisible()
    await expect(dialog.getByText(/10MB/)).toBeVisible()
    const summary = `Export drops merged cells ${Date.now()}`
    await dialog.getByLabel(/summary/i).fill(summary)
    await dialog.getByLabel(/description/i).fill('The filled CAIQ loses merged header cells.')
    await page.screenshot({ path: 'test-results/screens/support-dialog-1440.png' })
    await page.setViewportSize({ width: 375, height: 812 })
    await page.screenshot({ path: 'test-results/screens/support-dialog-375.png' })
    await page.setViewportSize({ width: 1440, height: 900 })
    // closing keeps the draft; reopening restores it
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect(dialog).toBeHidden()
    await page.getByRole('button', { name: 'Support' }).click()
    await expect(page.getByRole('dialog').getByLabel(/summary/i)).toHaveValue(summary)

    // a failing submit keeps the draft and says so
    await page.route('**/api/v1/ticketing/tasks/', (route) => route.abort(), { times: 1 })
    await page.getByRole('dialog').getByRole('button', { name: 'Submit' }).click()
    await expect(
      page
        .getByText('Failed to submit ticket. Please try again. Your data has been saved.')
        .first(),
    ).toBeVisible()
    await expect(page.getByRole('dialog').getByLabel(/summary/i)).toHaveValue(summary)

    await page.getByRole('dialog').getByRole('button', { name: 'Submit' }).click()
    await expect(page.getByText('Ticket submitted successfully!')).toBeVisible()
    await expect(page.getByRole('dialog')).toBeHidden()
    const rows = await sql<{ summary: string; priority: string }>(
      `select t.summary, t.priority from support_tickets t join users u on u.id = t.user_id
        where lower(u.email) = lower($1)`,
      [account.email],
    )
    expect(rows).toEqual([{ summary, priority: 'Medium' }])
    // the draft is gone after success
    await page.getByRole('button', { name: 'Support' }).click()
    await expect(page.getByRole('dialog').getByLabel(/summary/i)).toHaveValue('')
  })

  test("'Ask for a Feature' opens the ticket as a feature request", async ({ page, request }) => {
    await signIn(page, request)
    await page.goto('/')
    await page.getByRole('button', { name: 'User menu' }).click()
    await page.getByRole('menuitem', { name: 'Ask for a Feature' }).click()
    const dialog = page.getByRole('dialog')
    await expect(dialog.getByRole('heading', { name: 'Submit a ticket' })).toBeVisible()
    await expect(dialog.getByRole('combobox', { name: 'Type' })).toHaveText('Feature Request')
  })
})
