import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { type BrowserContext, chromium, expect, type Worker } from '@playwright/test'
import { EXTENSION_TEXTS, QUIRE_EXTENSION_ID } from '../../contract/extension.ts'
import type { TestAccount } from './accounts.ts'
import { BASE_URL } from './env.ts'

/** The built extension (npm run build), unpacked into a Chromium profile of its own. */
export const EXTENSION_DIR = path.resolve('dist/extension')

/** The extension's APIs, as its service worker sees them. */
declare const chrome: {
  storage: {
    local: {
      get(key: string): Promise<Record<string, string | undefined>>
      set(items: Record<string, string>): Promise<void>
    }
  }
  tabs: { query(info: { url?: string }): Promise<{ id?: number; url?: string }[]> }
}

export async function withExtension(run: (context: BrowserContext) => Promise<void>) {
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

/** The extension's service worker (its id is the one the server allows). */
export async function extensionWorker(context: BrowserContext): Promise<Worker> {
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'))
  expect(new URL(worker.url()).host).toBe(QUIRE_EXTENSION_ID)
  return worker
}

/**
 * Connects the extension as a person does: the popup's address and 'Connect to Quire', Quire's
 * sign-in in the tab it opens, and the tokens handed back to the extension.
 */
export async function connectExtension(context: BrowserContext, account: TestAccount) {
  const worker = await extensionWorker(context)
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
  return worker
}

/** The id of the tab showing `url`, as the extension knows it. */
export async function tabIdOf(worker: Worker, url: string): Promise<number> {
  const id = await worker.evaluate(
    async (address) => (await chrome.tabs.query({ url: address }))[0]?.id,
    url,
  )
  if (id === undefined) throw new Error(`no tab shows ${url}`)
  return id
}
