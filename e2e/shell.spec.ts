import { get } from 'node:http'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { expect, test } from '@playwright/test'
import { seedExpiredForgedSession, signIn } from './support/session.ts'

/** A GET whose body comes back exactly as the server encoded it. */
const rawGet = (url: string, acceptEncoding: string) =>
  new Promise<{ encoding: string | undefined; sent: Buffer }>((resolve, reject) => {
    get(url, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () =>
        resolve({ encoding: res.headers['content-encoding'], sent: Buffer.concat(chunks) }),
      )
      res.on('error', reject)
    }).on('error', reject)
  })

test.describe('app shell', () => {
  test('an unauthenticated visit to /repository lands on /login', async ({ page }) => {
    await page.goto('/repository')
    await expect(page).toHaveURL(/\/login$/)
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
  })

  test('an expired session with a refresh the server refuses lands on /login with tokens cleared', async ({
    page,
  }) => {
    await seedExpiredForgedSession(page)
    await page.goto('/questionnaires')
    await expect(page).toHaveURL(/\/login$/)
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull()
    expect(await page.evaluate(() => localStorage.getItem('refresh_token'))).toBeNull()
  })

  test('with a valid session the layout renders: sidebar, title and user menu', async ({
    page,
    request,
  }) => {
    const account = await signIn(page, request)
    await page.goto('/')
    await expect(page.getByTestId('page-title')).toHaveText('Home')
    const nav = page.getByRole('navigation', { name: 'Main' })
    for (const label of [
      'Home',
      'Repository',
      'Knowledge Base',
      'Questionnaires',
      'Chat',
      'Settings',
    ]) {
      await expect(nav.getByRole('link', { name: label, exact: true })).toBeVisible()
    }
    await expect(nav.getByRole('button', { name: 'Support' })).toBeVisible()
    await nav.getByRole('link', { name: 'Knowledge Base', exact: true }).click()
    await expect(page).toHaveURL(/\/knowledge-base$/)
    await expect(page.getByTestId('page-title')).toHaveText('Knowledge Base')

    await page.getByRole('button', { name: 'User menu' }).click()
    await expect(page.getByTestId('user-menu-name')).toHaveText(
      `${account.firstName} ${account.lastName}`,
    )
    await expect(page.getByTestId('user-menu-email')).toHaveText(account.email)
    await expect(page.getByRole('menuitem', { name: 'Ask for a Feature' })).toBeVisible()
    await page.getByRole('menuitem', { name: 'Log out' }).click()
    await expect(page).toHaveURL(/\/login$/)
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull()
  })

  test('the questionnaire page takes a numeric id, 0 when it is not a number', async ({
    page,
    request,
  }) => {
    await signIn(page, request)
    await page.goto('/questionnaire/42')
    await expect(page.getByTestId('page-title')).toHaveText('Questionnaire Automation')
    // no questionnaire 42 in this organisation: the server's words, and a way back
    await expect(page.getByRole('heading', { name: 'Questionnaire not found' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Back to questionnaires' })).toBeVisible()
    await page.goto('/questionnaire/abc')
    await expect(page.getByRole('heading', { name: 'No questionnaire selected' })).toBeVisible()
  })

  test('Ctrl+B collapses the sidebar and the state survives a reload', async ({
    page,
    context,
    request,
  }) => {
    await signIn(page, request)
    await page.goto('/')
    const sidebar = page.getByTestId('sidebar')
    await expect(sidebar).toHaveAttribute('data-state', 'expanded')
    // expanded, the sidebar lists each page by name (issue 30): 13rem
    expect((await sidebar.boundingBox())?.width).toBeCloseTo(208, 0)
    await page.keyboard.press('Control+b')
    await expect(sidebar).toHaveAttribute('data-state', 'collapsed')
    await expect.poll(async () => (await sidebar.boundingBox())?.width).toBeCloseTo(48, 0)
    const cookie = (await context.cookies()).find((c) => c.name === 'sidebar_state')
    expect(cookie?.value).toBe('false')
    const days = ((cookie?.expires ?? 0) - Date.now() / 1000) / 86400
    expect(days).toBeGreaterThan(6.9)
    expect(days).toBeLessThanOrEqual(7)
    await page.reload()
    await expect(page.getByTestId('sidebar')).toHaveAttribute('data-state', 'collapsed')
    await page.keyboard.press('Control+b')
    await expect(page.getByTestId('sidebar')).toHaveAttribute('data-state', 'expanded')
  })

  test('at 375 px the sidebar opens as a slide-over', async ({ page, request }) => {
    await page.setViewportSize({ width: 375, height: 740 })
    await signIn(page, request)
    await page.goto('/')
    await expect(page.getByTestId('sidebar')).toBeHidden()
    await page.getByRole('button', { name: 'Toggle sidebar' }).click()
    const panel = page.getByTestId('sidebar-mobile')
    await expect(panel).toBeVisible()
    expect((await panel.boundingBox())?.width).toBeCloseTo(240, 0)
    await panel.getByRole('link', { name: 'Chat', exact: true }).click()
    await expect(page).toHaveURL(/\/chat$/)
    await expect(panel).toBeHidden()
    await page.keyboard.press('Control+b')
    await expect(panel).toBeVisible()
  })

  test("a lazy page that fails to load shows 'Page Error' with 'Refresh Page'", async ({
    page,
    request,
  }) => {
    await signIn(page, request)
    await page.route(/\/assets\/repository-page-[^/]+\.js$/, (route) => route.abort())
    await page.goto('/repository')
    await expect(page.getByRole('heading', { name: 'Page Error' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Refresh Page' })).toBeVisible()
    // the layout around the failed page still works
    await expect(page.getByTestId('page-title')).toHaveText('Repository')
  })

  test('unknown API paths answer JSON 404; HTML carries the CSP', async ({ request }) => {
    const api = await request.get('/api/v1/does-not-exist/')
    expect(api.status()).toBe(404)
    expect(await api.json()).toMatchObject({ error: 'No such API endpoint' })
    const html = await request.get('/settings')
    expect(html.headers()['content-security-policy']).toContain("frame-ancestors 'none'")
  })

  test('the entry script reaches a gzip-only and a Brotli client as the same bytes', async ({
    request,
    baseURL,
  }) => {
    const html = await (await request.get('/login')).text()
    const entry = html.match(/<script[^>]+src="([^"]+\.js)"/)?.[1]
    expect(entry).toBeTruthy()
    const plain = await request.get(`${entry}`, { headers: { 'accept-encoding': 'identity' } })
    expect(plain.headers()['content-encoding']).toBeUndefined()
    const identity = await plain.body()
    // fetched with node:http, which leaves the body as sent: the test decodes it itself
    for (const [accept, decode] of [
      ['gzip', gunzipSync],
      ['br', brotliDecompressSync],
    ] as const) {
      const { encoding, sent } = await rawGet(`${baseURL}${entry}`, accept)
      expect(encoding).toBe(accept)
      expect(sent.byteLength).toBeLessThan(identity.byteLength / 2)
      expect(decode(sent).equals(identity)).toBe(true)
    }
  })
})
