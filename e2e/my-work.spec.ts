import { type APIRequestContext, expect, test } from '@playwright/test'
import { linkIn, waitForMail } from './support/mailbox.ts'
import { shotAtBothWidths as shot } from './support/screens.ts'
import { freshAccount, seedSession } from './support/session.ts'
import { uploadQuestionnaire } from './support/workspace.ts'

/**
 * What is mine (issue 29): an admin assigns questions of a questionnaire to a contributor with due
 * dates; the contributor sees them in My work (overdue, this week, no due date), counted in the
 * sidebar and on the home page, and told in the bell, live; opening a notification lands on its
 * question. The contributor chooses how each kind reaches them, and unsubscribes from the emails
 * by the mailed link. The admin's own assignment shows in the admin's My work, with no
 * notification. The journey makes its own organisation, so no other journey's work shows.
 */

const QUESTIONNAIRE = 'Harbour Freight vendor review.xlsx'
const QUESTIONS: [string, string][] = [
  ['HF-01', 'Do you encrypt customer data at rest with keys you manage?'],
  ['HF-02', 'Do you review privileged access to production every quarter?'],
  ['HF-03', 'Is there a documented incident response plan tested yearly?'],
  ['HF-04', 'Do you carry cyber liability insurance?'],
]
const DAY_MS = 86_400_000
const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10)

type Headers = Record<string, string>

async function tokensOf(request: APIRequestContext, email: string, password: string) {
  const login = await request.post('/api/v1/admin/login/', { data: { email, password } })
  expect(login.ok(), await login.text()).toBe(true)
  return (await login.json()) as { access: string; refresh: string }
}

/** A new organisation's admin (Ada Lovelace), registered and confirmed through the API. */
async function newAdmin(request: APIRequestContext) {
  const account = await freshAccount(request, 'my-work')
  return { account, tokens: await tokensOf(request, account.email, account.password) }
}

/** A contributor (Grace Hopper) invited by the admin, with a password set from the invitation. */
async function newContributor(request: APIRequestContext, headers: Headers) {
  const email = `grace-${Date.now()}@example.com`
  const password = 'Grace-contributes-42'
  const invited = await request.post('/api/v1/admin/users/invite/', {
    headers,
    data: { email, first_name: 'Grace', last_name: 'Hopper', role: 'contributor' },
  })
  expect(invited.status(), await invited.text()).toBe(201)
  const link = new URL(linkIn(await waitForMail(email, /invit/i), '/set-password'))
  const set = await request.post('/api/v1/admin/set-password/', {
    data: {
      uid: link.searchParams.get('uid'),
      token: link.searchParams.get('token'),
      new_password: password,
    },
  })
  expect(set.ok(), await set.text()).toBe(true)
  const profile = await request.get('/api/v1/admin/profile/', {
    headers: { authorization: `Bearer ${(await tokensOf(request, email, password)).access}` },
  })
  const id = ((await profile.json()) as { user: { id: number } }).user.id
  return { email, id, tokens: await tokensOf(request, email, password) }
}

async function questionnaireOf(request: APIRequestContext, headers: Headers) {
  const id = await uploadQuestionnaire(request, headers, QUESTIONNAIRE, QUESTIONS)
  const answers = await request.get(`/api/v1/filler/questionnaires/${id}/answers/`, { headers })
  const rows = ((await answers.json()) as { questions: { id: number; text: string }[] }).questions
  const idOf = (text: string) => rows.find((row) => row.text === text)?.id as number
  return { id, questions: QUESTIONS.map(([, text]) => idOf(text)) }
}

test('assigned questions show in My work and in the bell, live; a notification opens its question', async ({
  browser,
  page,
  request,
}) => {
  test.setTimeout(150_000)
  const admin = await newAdmin(request)
  const headers = { authorization: `Bearer ${admin.tokens.access}` }
  const ada = await newContributor(request, headers)
  const questionnaire = await questionnaireOf(request, headers)
  const [overdue, thisWeek, noDate, mine] = questionnaire.questions as number[]
  const assign = async (assignee: number, ids: number[], due?: string) => {
    const res = await request.post(`/api/v1/filler/questionnaires/${questionnaire.id}/assign/`, {
      headers,
      data: { assignee_id: assignee, question_ids: ids, ...(due && { due_date: due }) },
    })
    expect(res.status(), await res.text()).toBe(200)
  }
  await assign(ada.id, [overdue as number], day(-2))
  await assign(ada.id, [thisWeek as number], day(3))

  // the admin's own question: in the admin's My work, and no notification of it
  const adminProfile = await request.get('/api/v1/admin/profile/', { headers })
  const adminId = ((await adminProfile.json()) as { user: { id: number } }).user.id
  await assign(adminId, [mine as number])
  await seedSession(page, admin.tokens)
  await page.goto('/my-work')
  await expect(page.getByTestId('my-work-item')).toHaveCount(1)
  await expect(page.getByRole('heading', { name: 'No due date' })).toBeVisible()
  await expect(page.getByTestId('my-work-item')).toContainText(QUESTIONS[3]?.[1] as string)
  await expect(page.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible()

  // the contributor, in a browser of their own
  const theirs = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  const adaPage = await theirs.newPage()
  await seedSession(adaPage, ada.tokens)
  await adaPage.goto('/')
  const home = adaPage.getByTestId('home-my-work')
  await expect(home).toContainText('1 overdue')
  await expect(home).toContainText('1 this week')
  await expect(home.getByTestId('my-work-item')).toHaveCount(2)
  const nav = adaPage.getByRole('navigation', { name: 'Main' })
  await expect(nav.getByRole('link', { name: 'My work: 2 due soon' })).toBeVisible()
  const bell = adaPage.getByTestId('notification-bell')
  await expect(bell).toHaveAccessibleName('Notifications, 2 unread')
  await shot(adaPage, 'home-my-work')

  await nav.getByRole('link', { name: 'My work: 2 due soon' }).click()
  await expect(adaPage).toHaveURL(/\/my-work$/)
  await expect(adaPage.getByTestId('page-title')).toHaveText('My work')
  const items = adaPage.getByTestId('my-work-item')
  await expect(items).toHaveCount(2)
  const overdueGroup = adaPage.getByRole('region', { name: 'Overdue' })
  await expect(overdueGroup.getByTestId('my-work-item')).toContainText(QUESTIONS[0]?.[1] as string)
  await expect(overdueGroup.getByTestId('my-work-item')).toContainText('Was due')
  await expect(overdueGroup.getByTestId('my-work-item')).toContainText('Assigned')
  await expect(
    adaPage.getByRole('region', { name: 'This week' }).getByTestId('my-work-item'),
  ).toContainText(QUESTIONS[1]?.[1] as string)

  // live: a question assigned while the page is open shows in the bell and in My work
  await assign(ada.id, [noDate as number])
  await expect(bell).toHaveAccessibleName('Notifications, 3 unread', { timeout: 10_000 })
  await expect(items).toHaveCount(3)
  await expect(adaPage.getByRole('region', { name: 'No due date' })).toBeVisible()
  await shot(adaPage, 'my-work')

  // the bell: newest first; opening one marks it read and lands on its question
  await bell.click()
  const panel = adaPage.getByRole('dialog', { name: 'Notifications' })
  const notes = panel.getByTestId('notification')
  await expect(notes).toHaveCount(3)
  await expect(notes.first()).toContainText(/Ada Lovelace assigned you HF-03/)
  await expect(notes.first()).toHaveAttribute('data-unread', '')
  await shot(adaPage, 'notification-panel')
  await adaPage.setViewportSize({ width: 1440, height: 900 })
  if (!(await panel.isVisible())) await bell.click()
  await notes.first().click()
  await expect(adaPage).toHaveURL(
    new RegExp(`/questionnaire/${questionnaire.id}\\?question=${noDate}$`),
  )
  await adaPage
    .getByRole('dialog', { name: 'License Limitation' })
    .getByRole('button', { name: 'OK' })
    .click()
  await expect(bell).toHaveAccessibleName('Notifications, 2 unread')
  await bell.click()
  await expect(notes.first()).not.toHaveAttribute('data-unread', '')
  await panel.getByRole('button', { name: 'Mark all read' }).click()
  // the open panel hides the page from assistive technology: the bell's label, read as such
  await expect(bell).toHaveAttribute('aria-label', 'Notifications')
  await expect(adaPage.getByTestId('notification-count')).toBeHidden()
  await expect(panel.getByRole('button', { name: 'Mark all read' })).toBeDisabled()
  await panel.getByRole('button', { name: 'Close', exact: true }).last().click()
  await adaPage.reload()
  await expect(adaPage.getByTestId('notification-bell')).toHaveAccessibleName('Notifications')

  // how each kind reaches me: chosen in Settings, kept
  await adaPage.goto('/settings/notifications')
  const section = adaPage.locator('#notifications')
  await expect(section.getByRole('heading', { name: 'Notifications' })).toBeVisible()
  await section.getByRole('combobox', { name: 'My answer is approved' }).click()
  await adaPage.getByRole('option', { name: 'In the app', exact: true }).click()
  await expect(section.getByTestId('notifications-status')).toHaveText('Saved')
  await shot(adaPage, 'notification-preferences')
  await adaPage.reload()
  await expect(
    adaPage.locator('#notifications').getByRole('combobox', { name: 'My answer is approved' }),
  ).toContainText('In the app')

  // the emailed link unsubscribes without signing in; a broken one says so
  const mail = await waitForMail(ada.email, /assigned/i)
  const unsubscribe = linkIn(mail, '/unsubscribe')
  const anonymous = await browser.newContext()
  const visitor = await anonymous.newPage()
  await visitor.goto(unsubscribe)
  await expect(visitor.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible()
  await expect(visitor.getByText('You will no longer receive these emails.')).toBeVisible()
  await shot(visitor, 'unsubscribed')
  await visitor.goto('/unsubscribe?token=not-a-real-token')
  await expect(visitor.getByRole('heading', { name: 'This link does not work' })).toBeVisible()
  await visitor.goto('/unsubscribe')
  await expect(visitor.getByRole('heading', { name: 'This link does not work' })).toBeVisible()
  await anonymous.close()

  // the admin's bell stayed quiet: assigning oneself tells nobody
  await page.reload()
  await expect(page.getByTestId('notification-bell')).toHaveAccessibleName('Notifications')
  await theirs.close()
})
