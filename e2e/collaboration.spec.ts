import { expect, type Page, test } from '@playwright/test'
import { colleague, newAccount, registerAndConfirm } from './support/accounts.ts'
import { waitForMail } from './support/mailbox.ts'
import { shotAtBothWidths as shot } from './support/screens.ts'
import { uploadQuestionnaire } from './support/workspace.ts'

/**
 * Working together (issue 29), with three people in three browsers: the admin sets the customer
 * and the due date and assigns the tab to a contributor; the contributor finds it in My work and
 * in the bell, and by email; answers, mentions the approver in a comment, marks it ready; the
 * approver, watching the same questionnaire, sees it arrive live and requests changes; the
 * contributor edits, the approver approves. An edit from a second tab against a stale version
 * gets the merge view. The journey makes its own organisation.
 */

const QUESTIONS: [string, string][] = [
  ['KV-01', 'Do you encrypt tenant data at rest with customer-managed keys?'],
  ['KV-02', 'Is access to production reviewed by a second engineer every month?'],
]

/** The license notice shows once per browser session, whenever it loads: it is closed then. */
async function dismissNotice(page: Page) {
  const notice = page.getByRole('dialog', { name: 'License Limitation' })
  await page.addLocatorHandler(notice, async () => {
    await notice.getByRole('button', { name: 'OK' }).click()
  })
}

async function openQuestionnaire(page: Page, id: number) {
  await dismissNotice(page)
  await page.goto(`/questionnaire/${id}`)
  await expect(page.getByRole('listbox', { name: /Questions of/ })).toBeVisible({
    timeout: 20_000,
  })
}

const rowOf = (page: Page, text: string) =>
  page
    .getByRole('listbox', { name: /Questions of/ })
    .getByRole('option')
    .filter({ hasText: text })

async function choose(page: Page, label: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: label }).click()
  await page.getByRole('option', { name: option }).click()
}

test('three people answer, review and approve a questionnaire together, live', async ({
  browser,
  page,
  request,
}) => {
  test.setTimeout(240_000)
  const admin = newAccount('collab-admin')
  await registerAndConfirm(page, admin)
  const access = await page.evaluate(() => localStorage.getItem('access_token'))
  const headers = { authorization: `Bearer ${access}` }
  const id = await uploadQuestionnaire(request, headers, 'Keelson security review.xlsx', QUESTIONS)
  const contributor = await colleague(browser, admin.email, 'contributor', 'Cora')
  const approver = await colleague(browser, admin.email, 'approver', 'Abel')
  const [first] = QUESTIONS.map(([, text]) => text) as [string, string]

  // the admin: customer and due date, then the whole tab to the contributor
  await page.goto('/questionnaires')
  const work = await request.post(`/api/v1/filler/questionnaires/${id}/work/`, {
    headers,
    data: { customer_name: 'Keelson Maritime', due_date: '2031-03-31', work_status: 'drafting' },
  })
  expect(work.status(), await work.text()).toBe(200)
  await openQuestionnaire(page, id)
  await expect(page.getByText('Keelson Maritime')).toBeVisible()
  // one date format across the app (issue 39)
  await expect(page.getByTestId('due-date')).toHaveText('Due Mar 31, 2031')
  await page.getByRole('button', { name: 'Assign', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: 'Assign questions' })
  await choose(page, 'Questions', 'Every question of this tab')
  await choose(page, 'Assign to', new RegExp(contributor.email))
  await dialog.getByRole('button', { name: 'Assign', exact: true }).click()
  await expect(page.getByText('Assigned 2 questions')).toBeVisible()
  await expect(rowOf(page, first).getByTestId('row-work')).toContainText('Assigned')

  // the contributor: My work, the bell, the email
  const cora = contributor.page
  await dismissNotice(cora)
  await cora.goto('/my-work')
  await expect(cora.getByText(first)).toBeVisible()
  await expect(cora.getByTestId('notification-bell')).toHaveAccessibleName(
    'Notifications, 1 unread',
  )
  const mail = await waitForMail(contributor.email, /assigned/i)
  expect(mail.text ?? mail.html ?? '').toContain('Keelson security review.xlsx')

  // the approver watches the same questionnaire
  const abel = approver.page
  await openQuestionnaire(abel, id)
  await expect(rowOf(abel, first)).toBeVisible()

  // the contributor answers from My work, mentions the approver, and marks it ready
  await cora.getByText(first).click()
  await expect(cora).toHaveURL(new RegExp(`/questionnaire/${id}\\?question=`))
  const panel = cora.getByRole('region', { name: 'Answer' })
  await expect(panel).toContainText(first)
  await expect(cora.getByTestId('viewers')).toContainText('viewing now')
  await panel.getByRole('button', { name: 'Edit' }).first().click()
  await panel.getByRole('combobox', { name: 'Answer value' }).click()
  // the value's list opens inside the panel (beside the question grid, itself a listbox)
  await panel.getByRole('option', { name: 'Yes', exact: true }).click()
  await panel.getByLabel('Explanation').fill('Yes: tenant data is encrypted with keys in our KMS.')
  await panel.getByRole('button', { name: 'Save' }).click()
  await expect(panel.getByTestId('answer-text')).toHaveText(
    'Yes: tenant data is encrypted with keys in our KMS.',
  )
  const questionId = Number(new URL(cora.url()).searchParams.get('question'))
  const coraToken = await cora.evaluate(() => localStorage.getItem('access_token'))
  const commented = await request.post(
    `/api/v1/filler/questionnaires/questions/${questionId}/comments/`,
    {
      headers: { authorization: `Bearer ${coraToken}` },
      data: {
        body: `@${approver.name} can you check the key rotation wording?`,
        mentions: [approver.id],
      },
    },
  )
  expect(commented.status(), await commented.text()).toBe(201)
  await panel.getByRole('button', { name: 'Mark ready for review' }).click()
  await expect(panel.getByText('Ready for review')).toBeVisible()

  // the approver sees it arrive without reloading, and is told of the mention
  await expect(rowOf(abel, first)).toContainText('tenant data is encrypted', { timeout: 10_000 })
  await expect(rowOf(abel, first)).toContainText('Ready for review')
  await expect(abel.getByTestId('notification-bell')).toHaveAccessibleName(
    'Notifications, 1 unread',
    { timeout: 10_000 },
  )
  await rowOf(abel, first).click()
  const abelPanel = abel.getByRole('region', { name: 'Answer' })
  await abelPanel.getByRole('button', { name: 'Request changes' }).click()
  await abelPanel.getByLabel('What should change?').fill('Say how often the keys rotate.')
  await abelPanel.getByRole('button', { name: 'Send back' }).click()
  await expect(abelPanel.getByText('Changes requested')).toBeVisible()

  // the contributor sees it sent back, edits, and the approver approves
  await expect(panel.getByText('Changes requested')).toBeVisible({ timeout: 10_000 })
  await panel.getByRole('button', { name: 'Edit' }).first().click()
  await panel
    .getByLabel('Explanation')
    .fill('Yes: tenant data is encrypted with keys in our KMS, rotated every 90 days.')
  await panel.getByRole('button', { name: 'Save' }).click()
  await expect(rowOf(abel, first)).toContainText('rotated every 90 days', { timeout: 10_000 })
  await abelPanel.getByRole('button', { name: 'Approve' }).click()
  await expect(abelPanel.getByText('Approved').first()).toBeVisible()
  await expect(panel.getByTestId('assignee')).toHaveText(`Assigned to ${contributor.name}`)
  // the row says Approved once, with the answer's status (issue 39: one status vocabulary)
  await expect(rowOf(cora, first)).toContainText('Approved', { timeout: 10_000 })
  await expect(rowOf(cora, first).getByTestId('row-work')).not.toContainText('Approved')

  // a stale edit from a second tab gets the merge view, never a silent overwrite
  const second = rowOf(page, QUESTIONS[1]?.[1] as string)
  await second.click()
  const adminPanel = page.getByRole('region', { name: 'Answer' })
  await adminPanel.getByRole('button', { name: 'Edit' }).first().click()
  const other = await cora.context().newPage()
  await openQuestionnaire(other, id)
  await rowOf(other, QUESTIONS[1]?.[1] as string).click()
  const otherPanel = other.getByRole('region', { name: 'Answer' })
  await otherPanel.getByRole('button', { name: 'Edit' }).first().click()
  await otherPanel.getByLabel('Explanation').fill('Cora: a second engineer reviews monthly.')
  await otherPanel.getByRole('button', { name: 'Save' }).click()
  await expect(otherPanel.getByTestId('answer-text')).toHaveText(
    'Cora: a second engineer reviews monthly.',
  )
  await adminPanel.getByLabel('Explanation').fill('Admin: reviewed by a peer each month.')
  await adminPanel.getByRole('button', { name: 'Save' }).click()
  const merge = adminPanel.getByTestId('answer-merge')
  await expect(merge).toBeVisible()
  await expect(merge.getByTestId('merge-theirs')).toContainText(
    'Cora: a second engineer reviews monthly.',
  )
  await expect(merge.getByTestId('merge-mine')).toContainText(
    'Admin: reviewed by a peer each month.',
  )
  // (at one width: a narrower window moves the panel into a sheet, a new panel)
  await page.screenshot({ path: 'test-results/screens/collaboration-merge-1440.png' })
  await merge.getByRole('button', { name: 'Save mine' }).click()
  await expect(adminPanel.getByTestId('answer-text')).toHaveText(
    'Admin: reviewed by a peer each month.',
  )
  await expect(rowOf(other, QUESTIONS[1]?.[1] as string)).toContainText(
    'Admin: reviewed by a peer',
    {
      timeout: 10_000,
    },
  )
  await shot(abel, 'collaboration-approver')

  // home: the team's recent activity, naming who did what
  await page.goto('/')
  await expect(page.getByTestId('team-activity')).toContainText(`${approver.name}: Approved KV-01`)
  await shot(page, 'collaboration-home')
})
