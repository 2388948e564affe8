import { expect, test } from '@playwright/test'
import { shotAtBothWidths } from './support/screens.ts'
import { signInWithToken } from './support/workspace.ts'

/**
 * Documents have versions (issue 28): a file uploaded again under its name becomes its version 2,
 * "Replace…" on its row makes version 3, and its history lists every version with a download.
 * Library health counts the library's workload, each count opening its list.
 */

const DAY_MS = 86_400_000
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString().slice(0, 10)
const NAME = 'access-control-policy.txt'

const shot = shotAtBothWidths

const policy = (text: string) => ({
  name: NAME,
  mimeType: 'text/plain',
  buffer: Buffer.from(
    `Access control policy\n\nAll staff sign in with multi-factor authentication. ${text}\n`,
  ),
})

test('a file uploaded again becomes its next version; Replace makes another; History lists them', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000)
  const headers = await signInWithToken(page, request)
  await page.goto('/repository')
  await page.getByTestId('file-picker').setInputFiles(policy('Access is reviewed every quarter.'))
  const rows = page.getByTestId('file-row')
  await expect(rows).toHaveCount(1)
  await expect(rows.first().getByText('Ready')).toBeVisible({ timeout: 30_000 })
  // one list (issue 30): the upload left no row of its own beside the file's
  await expect(page.getByTestId('upload-row')).toHaveCount(0)

  // the same name again: version 2 of the same file, not a second file
  await page.getByTestId('file-picker').setInputFiles(policy('Access is reviewed every month.'))
  await expect(page.getByText(`New version 2 of ${NAME}`).first()).toBeVisible()
  await expect(rows).toHaveCount(1)
  await expect(rows.first().getByTestId('file-version-chip')).toHaveText('v2')
  await expect(rows.first().getByText('Ready')).toBeVisible({ timeout: 30_000 })
  await shot(page, 'file-versions-uploaded')

  // Replace… on the row: version 3
  await page.getByRole('button', { name: `Actions for ${NAME}` }).click()
  const chooser = page.waitForEvent('filechooser')
  await page.getByRole('menuitem', { name: 'Replace…' }).click()
  await (await chooser).setFiles(policy('Access is reviewed every week.'))
  await expect(page.getByText(`New version 3 of ${NAME}`)).toBeVisible()
  await expect(rows.first().getByTestId('file-version-chip')).toHaveText('v3')

  // History: every version, newest first, the current one marked
  await page.getByRole('button', { name: `Actions for ${NAME}` }).click()
  await page.getByRole('menuitem', { name: 'History' }).click()
  const dialog = page.getByRole('dialog', { name: 'Version history' })
  const versions = dialog.getByTestId('file-version')
  await expect(versions).toHaveCount(3)
  await expect(versions.first()).toContainText('Version 3')
  await expect(versions.first()).toContainText('Current')
  await expect(versions.last()).toContainText('Version 1')
  await expect(dialog.getByRole('button', { name: 'Download version 1' })).toBeVisible()
  await shot(page, 'file-versions-history')
  const download = page.waitForEvent('download')
  await dialog.getByRole('button', { name: 'Download version 1' }).click()
  expect((await download).suggestedFilename()).toBe(NAME)
  await dialog.getByRole('button', { name: 'Close' }).click()
  await expect(dialog).toBeHidden()

  // the journeys share one account: leave its repository as it was
  const listed = await request.get(`/api/v1/files/?q=${NAME}`, { headers })
  for (const file of ((await listed.json()) as { results: { id: number }[] }).results)
    await request.delete(`/api/v1/files/${file.id}/delete/`, { headers })
})

test('library health counts stale, due, source-changed and conflicting answers; each opens its list', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000)
  const headers = await signInWithToken(page, request)
  const made: number[] = []
  for (const [question, answer, reviewed] of [
    ['Is multi-factor authentication enforced for all staff?', 'Yes.', daysAgo(420)],
    ['Do you run an external penetration test every year?', 'Yes.', daysAgo(380)],
    ['Do you still support TLS 1.0 for legacy clients?', 'No.', daysAgo(350)],
    ['Is customer data encrypted at rest?', 'Yes, with AES-256.', daysAgo(10)],
    ['Is customer data encrypted at rest?', 'No, not yet.', daysAgo(5)],
  ] as const) {
    const created = await request.post('/api/v1/knowledge-base/qa/', {
      headers,
      data: { question, answer, last_reviewed_at: reviewed },
    })
    expect(created.status(), await created.text()).toBe(201)
    made.push(((await created.json()) as { id: number }).id)
  }
  await page.goto('/knowledge-base')
  const health = page.getByTestId('library-health')
  await expect(health.getByTestId('health-stale')).toContainText('2')
  await expect(health.getByTestId('health-due')).toContainText('1')
  await expect(health.getByTestId('health-source-changed')).toContainText('0')
  await expect(health.getByTestId('health-conflicts')).toContainText('1')
  await shot(page, 'library-health-counts')

  await health.getByTestId('health-conflicts').click()
  await expect(health.getByText('Contradicting answers', { exact: true })).toBeVisible()
  await health.getByTestId('health-stale').click()
  const rows = page.getByTestId('kb-item')
  await expect(rows).toHaveCount(2)
  await expect(
    page.getByRole('group', { name: 'Freshness' }).getByRole('button', { name: 'Stale' }),
  ).toHaveAttribute('aria-pressed', 'true')
  await health.getByTestId('health-due').click()
  await expect(rows).toHaveCount(1)
  await expect(rows.first()).toContainText('TLS 1.0')

  // the home page counts what needs attention
  await page.goto('/')
  await expect(page.getByTestId('home-tiles')).toContainText('2 stale')
  await shot(page, 'home-attention')

  // the journeys share one account: leave its library as it was
  for (const id of made)
    await request.delete(`/api/v1/knowledge-base/qa/${id}/delete/`, { headers })
})
