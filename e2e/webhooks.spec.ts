import { expect, test } from '@playwright/test'
import { SITE_URL } from './support/env.ts'
import { docsShot } from './support/screens.ts'
import { freshAccount } from './support/session.ts'
import { signInWithToken } from './support/workspace.ts'

/**
 * Issue 41: an admin registers a webhook endpoint in Settings, copies its secret once, an event
 * happens, the endpoint's log shows the delivery and its attempts (the journeys' local site
 * answers 404 to a POST, so each attempt is recorded as a failure), and a replay sends it again.
 */
test('webhooks: registered in Settings, an event delivered and logged, replayed', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000)
  const headers = await signInWithToken(page, request, await freshAccount(request, 'hooks'))
  await page.goto('/settings/webhooks')
  await expect(page.getByRole('heading', { name: 'Webhooks' })).toBeVisible()
  await page.getByRole('button', { name: 'New endpoint' }).click()
  const dialog = page.getByRole('dialog', { name: 'New webhook endpoint' })
  await dialog.getByLabel('Endpoint address').fill('http://example.com/hook')
  await dialog
    .getByRole('checkbox', { name: 'Someone asked for the trust centre’s documents' })
    .check()
  await dialog.getByRole('button', { name: 'Add endpoint' }).click()
  await expect(dialog.getByRole('alert')).toContainText('https://')
  await dialog.getByLabel('Endpoint address').fill(`${SITE_URL}/hook`)
  await dialog.getByRole('button', { name: 'Add endpoint' }).click()
  await expect(page.getByTestId('webhook-secret')).toContainText('whsec_')
  await page.getByRole('button', { name: 'Done' }).click()
  const endpoint = page.getByRole('listitem').filter({ hasText: `${SITE_URL}/hook` })
  await expect(endpoint).toContainText('On')

  // an event: a visitor asks for the trust centre's documents
  const slug = `hooks-${Date.now().toString(36)}`
  const saved = await request.post('/api/v1/trust/settings/', {
    headers,
    data: { slug, published: true },
  })
  expect(saved.status()).toBe(200)
  const version = ((await saved.json()) as { nda_version: number }).nda_version
  const asked = await request.post(`/api/v1/public/trust/${slug}/requests/`, {
    data: {
      name: 'Vera Visitor',
      email: 'vera@prospect.example',
      company: 'Prospect Ltd',
      nda_accepted: true,
      nda_version: version,
    },
  })
  expect(asked.status()).toBe(201)

  // the log: the delivery, tried and refused by the site (404), and sent again on demand
  await expect
    .poll(
      async () => {
        await endpoint.getByRole('button', { name: 'Deliveries' }).click()
        const log = page.getByRole('dialog', { name: 'Deliveries' })
        const text = (await log.textContent()) ?? ''
        await log.press('Escape')
        return text
      },
      { timeout: 90_000, intervals: [2_000] },
    )
    .toContain('Attempt 1: 404')
  await endpoint.getByRole('button', { name: 'Deliveries' }).click()
  const log = page.getByRole('dialog', { name: 'Deliveries' })
  await expect(log).toContainText('Someone asked for the trust centre’s documents')
  await docsShot(page, 'settings-webhooks')
  await log.getByRole('button', { name: 'Send again' }).click()
  await expect(log).toContainText('Attempt 2: 404', { timeout: 30_000 })
})
