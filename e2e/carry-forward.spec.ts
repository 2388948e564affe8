import { expect, type Page, test } from '@playwright/test'
import { signInWithToken, uploadQuestionnaire } from './support/workspace.ts'

/**
 * A questionnaire answered before (issue 28): this year's questionnaire of the same template is
 * offered last year's answers; starting from it carries the approved answers forward, lists what
 * changed, what is new and what was removed, and a reworded question shows its words changed.
 */

const SAME: [string, string][] = [
  ['IAM-01', 'Is multi-factor authentication enforced for all staff?'],
  ['LOG-01', 'Are security logs kept for at least one year?'],
  ['BCP-01', 'Is the disaster recovery plan tested every year?'],
]
const BEFORE: [string, string] = ['ENC-01', 'Do you encrypt data at rest?']
const AFTER: [string, string] = ['ENC-01', 'Do you encrypt all customer data at rest?']
const REMOVED: [string, string] = ['FAX-01', 'Do you still accept orders by fax?']
const NEW: [string, string] = ['AI-01', 'Do you train models on customer data?']

const shot = async (page: Page, name: string) => {
  await page.screenshot({ path: `test-results/screens/${name}-1440.png` })
  await page.setViewportSize({ width: 375, height: 812 })
  await page.screenshot({ path: `test-results/screens/${name}-375.png`, fullPage: true })
  await page.setViewportSize({ width: 1440, height: 900 })
}

test('this year’s questionnaire starts from last year’s: approved answers carried, changes listed', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000)
  const headers = await signInWithToken(page, request)
  const earlier = await uploadQuestionnaire(request, headers, 'Vendor review 2025.xlsx', [
    ...SAME,
    BEFORE,
    REMOVED,
  ])
  // last year's answers, approved
  const answers = await request.get(`/api/v1/filler/questionnaires/${earlier}/answers/`, {
    headers,
  })
  const rows = ((await answers.json()) as { questions: { answer: { id: number } }[] }).questions
  for (const row of rows) {
    const id = row.answer.id
    const edit = await request.post(`/api/v1/filler/questionnaires/answers/${id}/edit/`, {
      headers,
      data: { text: 'Yes.', choice: 'Yes' },
    })
    expect(edit.status(), await edit.text()).toBe(200)
    const approve = await request.post(`/api/v1/filler/questionnaires/answers/${id}/approve/`, {
      headers,
    })
    expect(approve.status(), await approve.text()).toBe(200)
  }
  const later = await uploadQuestionnaire(request, headers, 'Vendor review 2026.xlsx', [
    ...SAME,
    AFTER,
    NEW,
  ])

  await page.goto(`/questionnaire/${later}`)
  await page
    .getByRole('dialog', { name: 'License Limitation' })
    .getByRole('button', { name: 'OK' })
    .click()
  await expect(page.getByRole('dialog', { name: 'License Limitation' })).toBeHidden()
  const offer = page.getByRole('region', { name: 'Answered before' })
  await expect(offer).toContainText(
    /This looks like Vendor review 2025\.xlsx, answered .+: 3 of 5 questions are the same\. Start from it\?/,
  )
  await shot(page, 'carry-offer')

  await offer.getByRole('button', { name: 'Start from it' }).click()
  const result = page.getByRole('status', { name: 'Started from an earlier questionnaire' })
  await expect(result.getByRole('list', { name: 'What was carried forward' })).toHaveText(
    '3 answers carried forward1 question changed1 new question1 question removed',
  )
  await expect(result.getByRole('list', { name: 'Removed questions' })).toHaveText(
    `${REMOVED[0]} ${REMOVED[1]}`,
  )
  // the carried answers are in the grid, marked
  const grid = page.getByRole('listbox', { name: 'Questions of Controls' })
  await expect(grid.getByRole('option').first().getByTestId('row-flag')).toHaveAttribute(
    'aria-label',
    /Carried forward/,
  )
  await shot(page, 'carry-result')

  // the reworded question shows what changed in its words
  await grid.getByRole('option').filter({ hasText: AFTER[1] }).click()
  const panel = page.getByRole('region', { name: 'Answer' })
  const change = panel.getByRole('region', { name: 'Question changed' })
  await expect(change).toContainText('Reworded since Vendor review 2025.xlsx')
  await expect(change.locator('ins')).toHaveText(['all customer'])
  await page.screenshot({ path: 'test-results/screens/carry-question-changed-1440.png' })

  for (const id of [later, earlier])
    await request.delete(`/api/v1/filler/questionnaires/${id}/delete/`, { headers })
})
