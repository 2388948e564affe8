import { expect, type Page, test } from '@playwright/test'
import { makeQuestionnaireXlsx } from '../tests/fixtures/questionnaires.ts'
import { colleague, newAccount, registerAndConfirm } from './support/accounts.ts'
import { postQuestionnaire } from './support/workspace.ts'

/** Roles in the review: an approver approves an answer; a contributor cannot, and is told so. */

async function openFirstQuestion(page: Page, id: number) {
  await page.goto(`/questionnaire/${id}`)
  const notice = page.getByRole('dialog', { name: 'License Limitation' })
  await notice.getByRole('button', { name: 'OK' }).click()
  await page
    .getByRole('listbox', { name: /Questions of/ })
    .getByRole('option')
    .first()
    .click()
  return page.getByRole('region', { name: 'Answer' })
}

test('an approver approves an answer; a contributor cannot, and is told so', async ({
  browser,
  page,
  request,
}) => {
  test.setTimeout(90_000)
  const admin = newAccount('roles-admin')
  await registerAndConfirm(page, admin)
  const access = await page.evaluate(() => localStorage.getItem('access_token'))
  const headers = { authorization: `Bearer ${access}` }
  const id = await postQuestionnaire(
    request,
    headers,
    'Roles check.xlsx',
    await makeQuestionnaireXlsx({ tabs: 1, perTab: 2 }),
  )
  let questions: { answer: { id: number } }[] = []
  await expect
    .poll(async () => {
      const res = await request.get(`/api/v1/filler/questionnaires/${id}/answers/`, { headers })
      questions = ((await res.json()) as { questions?: typeof questions }).questions ?? []
      return questions.length
    })
    .toBeGreaterThan(0)
  const answerId = questions[0]?.answer.id as number
  const edited = await request.post(`/api/v1/filler/questionnaires/answers/${answerId}/edit/`, {
    headers,
    data: { choice: 'Yes', text: 'Backups are encrypted with AES-256.' },
  })
  expect(edited.status(), await edited.text()).toBe(200)

  // the contributor reads, edits, and is told approval is someone else's
  const contributor = await colleague(browser, admin.email, 'contributor')
  const theirPanel = await openFirstQuestion(contributor.page, id)
  await expect(theirPanel).toContainText('Backups are encrypted with AES-256.')
  await expect(theirPanel.getByTestId('approval-hint')).toHaveText(
    'Approving answers needs an approver or an admin.',
  )
  await expect(theirPanel.getByRole('button', { name: 'Approve' })).toHaveCount(0)
  await expect(theirPanel.getByRole('button', { name: 'Edit' })).toBeVisible()
  // and the server refuses the call, whatever the page shows
  const token = await contributor.page.evaluate(() => localStorage.getItem('access_token'))
  const refused = await contributor.page.request.post(
    `/api/v1/filler/questionnaires/answers/${answerId}/approve/`,
    { headers: { authorization: `Bearer ${token}` }, data: {} },
  )
  expect(refused.status()).toBe(403)
  await contributor.context.close()

  // the approver approves
  const approver = await colleague(browser, admin.email, 'approver')
  const panel = await openFirstQuestion(approver.page, id)
  await panel.getByRole('button', { name: 'Approve' }).click()
  await expect(panel.getByText('Approved', { exact: true })).toBeVisible()
  await approver.context.close()
})
