import { expect, type Page, test } from '@playwright/test'
import { signInWithToken, uploadQuestionnaire } from './support/workspace.ts'

/**
 * Comments on a question (issue 29): the admin opens a question, writes a comment mentioning
 * someone chosen after an "@", replies to it, edits the reply, resolves the thread (folded) and
 * reopens it; the question's row counts its open threads all along. The questionnaire's name is
 * the journey's own, since journeys share one account.
 */

const NAME = `Lantern comments ${Date.now()}.xlsx`
const FIRST = 'Do you keep the encryption keys of lantern backups in a managed key store?'
const QUESTIONS: [string, string][] = [
  ['LC-01', FIRST],
  ['LC-02', 'Are lantern operators trained on incident handling every year?'],
]

/** The license notice shows once per browser session, whenever it loads: it is closed then. */
async function dismissNotice(page: Page) {
  const notice = page.getByRole('dialog', { name: 'License Limitation' })
  await page.addLocatorHandler(notice, async () => {
    await notice.getByRole('button', { name: 'OK' }).click()
  })
}

/**
 * The answer panel at 1440 px, and at 375 px where it is a sheet over the list: taken once the
 * sheet has slid in (a shot straight after the resize catches it half way).
 */
async function shot(page: Page, name: string) {
  await page.setViewportSize({ width: 1440, height: 900 })
  await page.screenshot({ path: `test-results/screens/${name}-1440.png`, fullPage: true })
  await page.setViewportSize({ width: 375, height: 812 })
  const sheet = page.getByRole('dialog', { name: 'Answer' })
  await expect(sheet).toBeVisible()
  await expect.poll(async () => (await sheet.boundingBox())?.x).toBe(0)
  await page.screenshot({ path: `test-results/screens/${name}-375.png` })
  await page.setViewportSize({ width: 1440, height: 900 })
  await expect(sheet).toBeHidden()
}

test('comment, mention, reply, edit, resolve and reopen a thread; the row counts the open ones', async ({
  page,
  request,
}) => {
  const headers = await signInWithToken(page, request)
  const id = await uploadQuestionnaire(request, headers, NAME, QUESTIONS)
  await dismissNotice(page)
  await page.goto(`/questionnaire/${id}`)
  const grid = page.getByRole('listbox', { name: /Questions of/ })
  await expect(grid).toBeVisible({ timeout: 20_000 })
  const row = grid.getByRole('option').filter({ hasText: 'LC-01' })
  await row.getByText(FIRST).click()

  const comments = page.getByRole('region', { name: 'Comments' })
  await expect(comments.getByText('No comments yet.')).toBeVisible()
  const box = comments.getByRole('combobox', { name: 'New comment' })
  await box.click()
  await box.pressSequentially('Which key store holds them? @Ad')
  const people = comments.getByRole('listbox', { name: 'People to mention' })
  await expect(people.getByRole('option').first()).toContainText('Ada Lovelace')
  await page.screenshot({ path: 'test-results/screens/comments-mention-1440.png' })
  await box.press('Enter')
  await expect(box).toHaveValue('Which key store holds them? @Ada Lovelace ')
  await expect(people).toBeHidden()
  await box.pressSequentially('please confirm <b>today</b>.')
  await comments.getByRole('button', { name: 'Comment', exact: true }).click()

  const thread = comments.getByTestId('comment-thread')
  await expect(thread).toHaveCount(1)
  // plain text: the markup is shown as written, the mention highlighted
  await expect(thread.getByTestId('comment-body')).toHaveText(
    'Which key store holds them? @Ada Lovelace please confirm <b>today</b>.',
  )
  await expect(thread.locator('b')).toHaveCount(0)
  await expect(row.getByTitle('1 open comment thread')).toBeVisible()

  await thread.getByRole('button', { name: 'Reply' }).click()
  await thread.getByRole('combobox', { name: 'Reply' }).fill('AWS KMS, eu-west-1.')
  await thread.getByRole('button', { name: 'Send reply' }).click()
  await expect(thread.getByTestId('comment')).toHaveCount(2)

  // one's own reply is edited
  const reply = thread.getByTestId('comment').nth(1)
  await reply.getByRole('button', { name: 'Edit' }).click()
  await reply
    .getByRole('combobox', { name: 'Comment text' })
    .fill('AWS KMS, eu-west-1 and eu-central-1.')
  await reply.getByRole('button', { name: 'Save' }).click()
  await expect(reply.getByTestId('comment-body')).toHaveText('AWS KMS, eu-west-1 and eu-central-1.')
  await expect(reply.getByText('· edited')).toBeVisible()
  await shot(page, 'comments-thread')

  await thread.getByRole('button', { name: 'Resolve' }).click()
  await expect(thread).toContainText('Resolved by Ada Lovelace · 2 comments')
  await expect(row.getByTitle(/open comment thread/)).toHaveCount(0)

  await thread.getByText(/Resolved by/).click()
  await thread.getByRole('button', { name: 'Reopen' }).click()
  await expect(thread.getByRole('button', { name: 'Resolve' })).toBeVisible()
  await expect(row.getByTitle('1 open comment thread')).toBeVisible()

  // after a reload the server says the same
  await page.reload()
  await expect(
    grid.getByRole('option').filter({ hasText: 'LC-01' }).getByTitle('1 open comment thread'),
  ).toBeVisible({
    timeout: 20_000,
  })

  // leave the shared account's list as it was (the questionnaires journey starts from none)
  const removed = await request.post('/api/v1/filler/questionnaires/batch-delete/', {
    headers,
    data: { file_ids: [id] },
  })
  expect(removed.ok()).toBe(true)
})
