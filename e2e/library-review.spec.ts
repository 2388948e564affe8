import { expect, test } from '@playwright/test'
import { shotAtBothWidths } from './support/screens.ts'
import { signInWithToken } from './support/workspace.ts'

/**
 * Answers that stay true (issue 28): an owner sees which of the library's answers are stale or
 * due for review, opens the Review due queue and clears it: confirms one, edits one, retires one.
 */

const DAY_MS = 86_400_000
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString().slice(0, 10)

const STALE_CONFIRM = 'Is multi-factor authentication enforced for all staff?'
const STALE_EDIT = 'Do you run an external penetration test every year?'
const DUE_RETIRE = 'Do you still support TLS 1.0 for legacy clients?'
const FRESH = 'Is customer data encrypted at rest?'

const shot = shotAtBothWidths

test('an owner sees stale answers and clears the Review due queue: confirm, edit, retire', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000)
  const headers = await signInWithToken(page, request)
  const profile = await request.get('/api/v1/admin/profile/', { headers })
  const me = ((await profile.json()) as { user: { id: number } }).user.id
  // the journeys share one account: answers it imported earlier are its own too (issue 39)
  const mine = await request.get('/api/v1/knowledge-base/qa/?owner=me&page_size=1', { headers })
  const before = ((await mine.json()) as { count: number }).count
  for (const [question, answer, reviewed] of [
    [STALE_CONFIRM, 'Yes, for every account, with hardware keys for admins.', daysAgo(420)],
    [STALE_EDIT, 'Yes, by an independent firm.', daysAgo(380)],
    [DUE_RETIRE, 'Yes, on a separate endpoint.', daysAgo(350)],
    [FRESH, 'Yes, with AES-256.', daysAgo(20)],
  ] as const) {
    const created = await request.post('/api/v1/knowledge-base/qa/', {
      headers,
      data: { question, answer, owner_id: me, last_reviewed_at: reviewed },
    })
    expect(created.status(), await created.text()).toBe(201)
  }

  // the library: each answer's freshness, owner and last review
  await page.goto('/knowledge-base')
  const rows = page.getByTestId('kb-item')
  // the owner's own answers: these four, beside those it imported in an earlier journey
  await page.getByRole('group', { name: 'Owner' }).getByRole('button', { name: 'Mine' }).click()
  await expect(rows).toHaveCount(before + 4)
  const row = (question: string) => rows.filter({ hasText: question })
  await expect(row(STALE_CONFIRM).getByText('Stale', { exact: true })).toBeVisible()
  await expect(row(STALE_EDIT).getByText('Stale', { exact: true })).toBeVisible()
  await expect(row(DUE_RETIRE).getByText('Review due', { exact: true })).toBeVisible()
  await expect(row(FRESH).getByText('Fresh', { exact: true })).toBeVisible()
  await expect(row(FRESH).getByText(/^Reviewed /)).toBeVisible()
  await page
    .getByRole('group', { name: 'Freshness' })
    .getByRole('button', { name: 'Stale' })
    .click()
  await expect(rows).toHaveCount(2)
  await shot(page, 'library-freshness')
  await page.getByRole('group', { name: 'Freshness' }).getByRole('button', { name: 'All' }).click()
  await expect(rows).toHaveCount(before + 4)

  // the queue: the owner's due and stale answers, soonest due first
  await page.getByRole('tab', { name: 'Review due' }).click()
  await expect(rows).toHaveCount(3)
  await expect(rows.first()).toContainText(STALE_CONFIRM)
  await expect(rows.last()).toContainText(DUE_RETIRE)
  await shot(page, 'library-review-queue')

  // confirm: reviewed today, out of the queue
  await page.getByRole('button', { name: `Confirm ${STALE_CONFIRM}` }).click()
  await expect(page.getByText('Marked reviewed')).toBeVisible()
  await expect(rows).toHaveCount(2)

  // edit: rewriting the answer is a review
  await page.getByRole('button', { name: `Edit ${STALE_EDIT}` }).click()
  const dialog = page.getByRole('dialog', { name: 'Edit Q&A item' })
  // the owner is the caller: shown as 'Name (you)'
  await expect(dialog.getByRole('combobox', { name: 'Owner' })).toContainText('(you)')
  await expect(dialog.getByRole('combobox', { name: 'Review cycle', exact: true })).toContainText(
    'Use the organisation’s (365 days)',
  )
  await dialog.getByLabel('Answer').fill('Yes, by an independent CREST-accredited firm, yearly.')
  await shot(page, 'library-item-editor')
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(dialog).toBeHidden()
  await expect(rows).toHaveCount(1)

  // retire: deleted after a confirmation
  await page.getByRole('button', { name: `Retire ${DUE_RETIRE}` }).click()
  const confirm = page.getByRole('alertdialog', { name: 'Delete this Q&A item?' })
  await confirm.getByRole('button', { name: 'Delete' }).click()
  await expect(confirm).toBeHidden()
  await expect(rows).toHaveCount(0)
  await expect(page.getByText('All caught up')).toBeVisible()
  await shot(page, 'library-review-empty')

  // the library keeps three answers, all fresh now
  await page.getByRole('tab', { name: 'Q&A' }).click()
  await page.getByRole('group', { name: 'Owner' }).getByRole('button', { name: 'Mine' }).click()
  await expect(rows).toHaveCount(before + 3)
  await expect(page.getByTestId('kb-item').and(page.locator('[data-freshness=fresh]'))).toHaveCount(
    before + 3,
  )

  // the organisation's cycle, which every answer without its own follows
  await page.goto('/settings/organization')
  const cycle = page.getByLabel('Review cycle (days)')
  await expect(cycle).toHaveValue('365')
  await cycle.fill('180')
  await page
    .getByRole('region', { name: 'Organisation' })
    .getByRole('button', { name: 'Save changes' })
    .click()
  await expect(page.getByText('Settings saved')).toBeVisible()
  await cycle.scrollIntoViewIfNeeded()
  await shot(page, 'settings-review-cycle')
  await page.goto('/knowledge-base')
  await page.getByRole('button', { name: 'Add Q&A' }).click()
  await expect(
    page
      .getByRole('dialog', { name: 'Add Q&A item' })
      .getByRole('combobox', { name: 'Review cycle', exact: true }),
  ).toContainText('Use the organisation’s (180 days)')
})
