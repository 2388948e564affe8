import { expect, test } from '@playwright/test'
import { answeredFromDocument } from './support/workspace.ts'

/**
 * The reviewer sees why (issue 27): a Yes from a document lists what the question asks, part by
 * part, with the sentence that states each or 'Not stated', and what its confidence band means.
 */

const SCANNING = 'We perform vulnerability scanning of all production systems every week.'

test('a Yes from a document shows each part the question asks, stated or not, and what its band means', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000)
  const document = {
    name: 'Vulnerability management.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from(`Vulnerability management. ${SCANNING}`),
  }
  const answered = await answeredFromDocument(page, request, document, {
    name: 'Scanning check.xlsx',
    tab: 'Vulnerabilities',
    questions: [
      ['VUL-01', 'Is vulnerability scanning of production systems automated?'],
      ['VUL-02', 'Do you perform vulnerability scanning weekly?'],
    ],
  })

  const grid = page.getByRole('listbox', { name: 'Questions of Vulnerabilities' })
  const panel = page.getByRole('region', { name: 'Answer' })
  const parts = panel.getByRole('list', { name: 'What the question asks' })
  /** Opens the first question and checks its parts and what its band means. */
  const opensAutomated = async () => {
    await grid.getByRole('option').first().click()
    await expect(panel).toContainText('VUL-01')
    await expect(panel.getByTestId('answer-origin')).toHaveText(
      'From a document: the quoted passage',
    )
    // the sentence states the practice; no sentence says that it is automated
    const [practice, qualifier] = [
      parts.getByRole('listitem').nth(0),
      parts.getByRole('listitem').nth(1),
    ]
    await expect(parts.getByRole('listitem')).toHaveCount(2)
    await expect(practice).toContainText('vulnerability scanning')
    await expect(practice.getByText('Stated', { exact: true })).toBeVisible()
    await expect(practice.getByText(SCANNING)).toHaveAttribute('title', SCANNING)
    await expect(qualifier).toContainText('automated')
    await expect(qualifier.getByText('Not stated', { exact: true })).toBeVisible()
    // what its band means: a partly stated Yes is never High
    await expect(panel.getByTestId('answer-assurance')).toHaveText(
      /^(Medium|Low): right \d+ % of the time on questionnaires like this one\.$/,
    )
  }
  await opensAutomated()
  await page.screenshot({ path: 'test-results/screens/parts-1440.png' })

  // every part stated: no 'Not stated'
  await grid.getByRole('option').nth(1).click()
  await expect(panel).toContainText('VUL-02')
  await expect(parts.getByRole('listitem')).toHaveCount(2)
  await expect(parts.getByText('Stated', { exact: true })).toHaveCount(2)
  // one sentence states both: quoted once, then pointed at
  await expect(parts.getByText(SCANNING)).toHaveCount(1)
  await expect(parts.getByText('By the sentence above')).toHaveAttribute('title', SCANNING)
  await expect(parts.getByText('Not stated')).toHaveCount(0)
  await expect(panel.getByTestId('answer-assurance')).toHaveText(
    /^(High|Medium): right \d+ % of the time on questionnaires like this one\.$/,
  )
  await page.screenshot({ path: 'test-results/screens/parts-1440-stated.png' })

  // on a phone the answer opens as a drawer over the list
  await page.setViewportSize({ width: 375, height: 812 })
  await page.reload()
  await opensAutomated()
  // the drawer slides in: the picture waits until it has arrived
  await expect.poll(async () => (await panel.boundingBox())?.x ?? 999).toBeLessThan(24)
  await parts.scrollIntoViewIfNeeded()
  await page.screenshot({ path: 'test-results/screens/parts-375.png' })
  await page.setViewportSize({ width: 1440, height: 900 })

  await answered.remove()
})
