import { expect, type Page, test } from '@playwright/test'
import { makePdf } from '../tests/fixtures/documents.ts'
import { answeredFromDocument, uploadReady } from './support/workspace.ts'

/**
 * A reviewer resolves a source-changed answer (issue 28): a policy's new version no longer says
 * what an answer quotes; the workspace marks the answer, shows the passage then and now side by
 * side, and the reviewer confirms it still holds, which clears the flag.
 */

// words no other journey uses: the journeys share one account, and another's library answer or
// document must not be the one that answers here
const ENCRYPTION =
  'All Lumen ledger archives are encrypted at rest with AES-256 on every storage volume.'
const CHANGED = 'Lumen ledger archives at rest are encrypted only where the customer enables it.'
const RECOVERY =
  'The disaster recovery plan is tested twice a year with a full failover to a second region.'
const policy = async (encryption: string) => ({
  name: 'Lumen Security Policy.pdf',
  mimeType: 'application/pdf',
  buffer: await makePdf([
    ['Encryption', encryption],
    ['Business continuity', RECOVERY],
  ]),
})

/** Opens the first question of the workspace; on a phone its answer slides in as a drawer. */
const openFirst = async (page: Page) => {
  const grid = page.getByRole('listbox', { name: 'Questions of Controls' })
  await grid.getByRole('option').first().click()
  const panel = page.getByRole('region', { name: 'Answer' })
  await expect(panel).toContainText('ENC-01')
  return panel
}

test('a reviewer sees an answer whose document changed, both passages, and confirms it still holds', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000)
  const answered = await answeredFromDocument(page, request, await policy(ENCRYPTION), {
    name: 'Customer review.xlsx',
    tab: 'Controls',
    questions: [
      ['ENC-01', 'Are Lumen ledger archives encrypted at rest?'],
      ['BCP-01', 'Is the disaster recovery plan tested with a failover?'],
    ],
  })
  const { headers, fileId } = answered
  const grid = page.getByRole('listbox', { name: 'Questions of Controls' })
  await expect(grid.getByTestId('row-flag')).toHaveCount(0)

  // the same file name again: version 2, where the encryption sentence changed
  expect(await uploadReady(request, headers, await policy(CHANGED))).toBe(fileId)
  await page.reload()
  await expect(grid.getByRole('option').first().getByTestId('row-flag')).toHaveAttribute(
    'aria-label',
    'Source changed',
  )
  // the recovery answer quotes a sentence version 2 still holds
  await expect(grid.getByRole('option').nth(1).getByTestId('row-flag')).toHaveCount(0)

  const panel = await openFirst(page)
  await expect(
    panel.getByRole('list', { name: 'What changed' }).getByText('Source changed'),
  ).toBeVisible()
  const change = panel.getByRole('region', { name: 'Source changed' })
  await expect(change.getByTestId('passage-before')).toContainText('AES-256')
  await expect(change.getByTestId('passage-after')).toContainText(
    'only where the customer enables it',
  )
  await expect(change.getByTestId('passage-after')).toContainText('Now (version 2)')
  // side by side on a wide screen
  const [left, right] = [
    await change.getByTestId('passage-before').boundingBox(),
    await change.getByTestId('passage-after').boundingBox(),
  ]
  expect(right?.x ?? 0).toBeGreaterThan((left?.x ?? 0) + (left?.width ?? 0) - 1)
  await change.scrollIntoViewIfNeeded()
  await page.screenshot({ path: 'test-results/screens/source-changed-1440.png' })

  // on a phone the passages stack in the answer's drawer
  await page.setViewportSize({ width: 375, height: 812 })
  await page.reload()
  const phone = await openFirst(page)
  await expect.poll(async () => (await phone.boundingBox())?.x ?? 999).toBeLessThan(24)
  const phoneChange = phone.getByRole('region', { name: 'Source changed' })
  await phoneChange.scrollIntoViewIfNeeded()
  const [top, bottom] = [
    await phoneChange.getByTestId('passage-before').boundingBox(),
    await phoneChange.getByTestId('passage-after').boundingBox(),
  ]
  expect(bottom?.y ?? 0).toBeGreaterThan((top?.y ?? 0) + (top?.height ?? 0) - 1)
  await page.screenshot({ path: 'test-results/screens/source-changed-375.png' })
  await page.setViewportSize({ width: 1440, height: 900 })
  await page.reload()

  // the reviewer checked: the answer still holds, and the flag goes
  const wide = await openFirst(page)
  await wide
    .getByRole('region', { name: 'Source changed' })
    .getByRole('button', { name: 'Confirm it still holds' })
    .click()
  await expect(wide.getByRole('region', { name: 'Source changed' })).toHaveCount(0)
  await expect(wide.getByRole('list', { name: 'What changed' })).toHaveCount(0)
  await expect(grid.getByTestId('row-flag')).toHaveCount(0)
  await page.screenshot({ path: 'test-results/screens/source-changed-confirmed-1440.png' })
  // and it stays gone
  await page.reload()
  await expect(grid.getByRole('option')).toHaveCount(2)
  await expect(grid.getByTestId('row-flag')).toHaveCount(0)

  await answered.remove()
})
