import { expect, test } from '@playwright/test'
import { docsShot } from './support/screens.ts'
import { signInWithToken } from './support/workspace.ts'

/**
 * Issue 41: an admin makes an API key in Settings, sees it once, a program uses it for what its
 * scope allows and is refused the rest, and the admin's revocation stops it at the next call.
 */
test('API keys: made in Settings, shown once, used by a program, revoked', async ({
  page,
  request,
}) => {
  await signInWithToken(page, request)
  await page.goto('/settings/api-keys')
  await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible()
  await page.getByRole('button', { name: 'New key' }).click()
  const dialog = page.getByRole('dialog', { name: 'New API key' })
  await dialog.getByRole('button', { name: 'Create key' }).click()
  await expect(dialog.getByRole('alert')).toHaveText('Name the key')
  await dialog.getByLabel('Name').fill('CRM sync')
  await dialog.getByRole('radio', { name: /Read and write/ }).check()
  await dialog.getByRole('button', { name: 'Create key' }).click()
  const shown = page.getByTestId('new-api-key')
  await expect(shown).toContainText('qk_')
  const key = ((await shown.textContent()) ?? '').trim()
  await page.getByRole('button', { name: 'Done' }).click()
  await expect(page.getByTestId('new-api-key')).toBeHidden()
  const row = page.getByRole('row').filter({ hasText: 'CRM sync' })
  await expect(row).toContainText(key.slice(0, 9))
  await expect(page.locator('body')).not.toContainText(key)
  await docsShot(page, 'settings-api-keys')

  // a program with the key: the work, yes; people, no
  const headers = { authorization: `Bearer ${key}` }
  expect((await request.get('/api/v1/files/', { headers })).status()).toBe(200)
  expect((await request.get('/api/v1/admin/users/', { headers })).status()).toBe(403)

  await row.getByRole('button', { name: 'Revoke CRM sync' }).click()
  await page
    .getByRole('dialog', { name: 'Revoke CRM sync?' })
    .getByRole('button', { name: 'Revoke' })
    .click()
  await expect(row).toContainText('Revoked')
  expect((await request.get('/api/v1/files/', { headers })).status()).toBe(401)
})
