import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { type BrowserContext, chromium, expect, test } from '@playwright/test'
import { EXTENSION_TEXTS, QUIRE_EXTENSION_ID } from '../contract/extension.ts'
import { newAccount, registerAndConfirm } from './support/accounts.ts'
import { BASE_URL } from './support/env.ts'

/**
 * The browser extension, unpacked into Chromium: 'Connect to Quire' opens /extension/auth, the
 * person signs in, the tokens come back to the extension, which shows the account, searches the
 * knowledge base from its panel (refreshing its token when it expired), and disconnects. The page
 * refuses a redirect address that is not an allowed extension's.
 */

const EXTENSION_DIR = path.resolve('dist/extension')

/** The extension's storage, as its service worker sees it. */
declare const chrome: {
  storage: {
    local: {
      get(key: string): Promise<Record<string, string | undefined>>
      set(items: Record<string, string>): Promise<void>
    }
  }
}

async function withExtension(run: (context: BrowserContext) => Promise<void>) {
  const profile = mkdtempSync(path.join(tmpdir(), 'quire-extension-'))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless=new',
      '--no-sandbox',
      `--disable-extensions-except=${EXTENSION_DIR}`,
      `--load-extension=${EXTENSION_DIR}`,
    ],
  })
  try {
    await run(context)
  } finally {
    await context.close()
    rmSync(profile, { recursive: true, force: true })
  }
}

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
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'))
    expect(new URL(worker.url()).host).toBe(QUIRE_EXTENSION_ID)
    const popup = await context.newPage()
    await popup.goto(`chrome-extension://${QUIRE_EXTENSION_ID}/popup.html`)
    await popup.getByLabel('Quire address').fill(BASE_URL)
    const signIn = context.waitForEvent('page')
    await popup.getByRole('button', { name: 'Connect to Quire' }).click()
    const tab = await signIn
    await expect(tab.getByRole('button', { name: EXTENSION_TEXTS.continueToLogin })).toBeVisible()
    await tab.getByRole('button', { name: EXTENSION_TEXTS.continueToLogin }).click()
    await tab.getByLabel('Work Email').fill(account.email)
    await tab.getByRole('button', { name: 'Continue', exact: true }).click()
    await tab.getByLabel('Password', { exact: true }).fill(account.password)
    await tab.getByRole('button', { name: 'Sign in' }).click()
    // the tab goes back to the extension with the tokens, which keeps them and closes it
    await expect
      .poll(async () => (await worker.evaluate(() => chrome.storage.local.get('access'))).access, {
        timeout: 15_000,
      })
      .toBeTruthy()

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
