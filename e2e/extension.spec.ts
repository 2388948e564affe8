import { expect, test } from '@playwright/test'
import { EXTENSION_TEXTS, QUIRE_EXTENSION_ID } from '../contract/extension.ts'
import { newAccount, registerAndConfirm } from './support/accounts.ts'
import { connectExtension, withExtension } from './support/extension.ts'

/** The extension's storage, as its service worker sees it. */
declare const chrome: {
  storage: {
    local: {
      get(key: string): Promise<Record<string, string | undefined>>
      set(items: Record<string, string>): Promise<void>
    }
  }
}

/**
 * The browser extension, unpacked into Chromium: 'Connect to Quire' opens /extension/auth, the
 * person signs in, the tokens come back to the extension, which shows the account, searches the
 * knowledge base from its panel (refreshing its token when it expired), and disconnects. The page
 * refuses a redirect address that is not an allowed extension's.
 */

test('the extension connects, searches, refreshes its token and disconnects', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000)
  const account = newAccount('extension')
  await registerAndConfirm(page, account)
  const access = await page.evaluate(() => localStorage.getItem('access_token'))
  const headers = { authorization: `Bearer ${access}` }
  const added = await request.post('/api/v1/knowledge-base/qa/', {
    headers,
    data: {
      question: 'Do you encrypt backups?',
      answer: 'Yes, backups are encrypted with AES-256.',
    },
  })
  expect(added.status()).toBe(201)

  await withExtension(async (context) => {
    const worker = await connectExtension(context, account)

    const again = await context.newPage()
    await again.goto(`chrome-extension://${QUIRE_EXTENSION_ID}/popup.html`)
    await expect(again.getByText(`Connected as ${account.email}`)).toBeVisible()

    // the access token has expired: the panel refreshes it and searches
    await worker.evaluate(() => chrome.storage.local.set({ access: 'expired.access.token' }))
    const panel = await context.newPage()
    await panel.goto(`chrome-extension://${QUIRE_EXTENSION_ID}/panel.html`)
    await panel.getByLabel('Question').fill('encrypt backups')
    await panel.getByRole('button', { name: 'Search' }).click()
    await expect(panel.getByRole('article').first()).toContainText('AES-256')
    await expect(panel.getByRole('article').first()).toContainText(
      'Source: Do you encrypt backups?',
    )
    const refreshed = await worker.evaluate(() => chrome.storage.local.get('access'))
    expect(refreshed.access).not.toBe('expired.access.token')

    await again.reload()
    await again.getByRole('button', { name: 'Disconnect' }).click()
    await expect(again.getByRole('button', { name: 'Connect to Quire' })).toBeVisible()
    expect(
      (await worker.evaluate(() => chrome.storage.local.get('refresh'))).refresh,
    ).toBeUndefined()
  })
})

test('the extension page refuses an address that is not an allowed extension’s', async ({
  page,
}) => {
  await page.goto('/extension/auth?redirect_uri=https://evil.example/&state=x')
  await expect(page.getByText(EXTENSION_TEXTS.securityTitle)).toBeVisible()
  await expect(
    page.getByText('Invalid redirect_uri: must be chrome-extension:// URL'),
  ).toBeVisible()
  await expect(page.getByRole('button', { name: EXTENSION_TEXTS.closeWindow })).toBeVisible()
  await page.goto(
    '/extension/auth?redirect_uri=chrome-extension://abcdefghijklmnopabcdefghijklmnop/&state=x',
  )
  await expect(page.getByText(EXTENSION_TEXTS.notAllowed)).toBeVisible()
  await page.goto('/extension/auth?state=x')
  await expect(page.getByText(EXTENSION_TEXTS.missingRedirect)).toBeVisible()
})
