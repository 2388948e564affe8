import { expect, test } from '@playwright/test'
import { signIn } from './support/session.ts'

/**
 * Every shell page fits a 375 px phone and a 1440 px desktop without horizontal scrolling.
 * Screenshots land in test-results/screens for a look.
 */
const PAGES = [
  '/',
  '/repository',
  '/knowledge-base',
  '/questionnaires',
  '/questionnaire/7',
  '/chat',
  '/settings',
]
const WIDTHS = [375, 1440]

for (const width of WIDTHS) {
  test(`shell pages fit ${width} px without horizontal scrolling`, async ({ page, request }) => {
    await page.setViewportSize({ width, height: width < 768 ? 812 : 900 })
    await signIn(page, request)
    for (const path of PAGES) {
      await page.goto(path)
      await expect(page.getByTestId('page-title')).toBeVisible()
      // the page's own content has rendered (its lead, a heading or a figure)
      await expect(page.locator('main').locator('h2, h3, p').first()).toBeVisible()
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      )
      expect(overflow, `${path} at ${width}px`).toBeLessThanOrEqual(0)
      const name = path === '/' ? 'home' : path.slice(1).replaceAll('/', '-')
      await page.screenshot({ path: `test-results/screens/${name}-${width}.png` })
    }
  })
}

test('public pages fit 375 px', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 })
  for (const path of ['/login', '/register', '/extension/auth']) {
    await page.goto(path)
    await expect(page.locator('h1')).toBeVisible()
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    )
    expect(overflow, path).toBeLessThanOrEqual(0)
    await page.screenshot({
      path: `test-results/screens/public${path.replaceAll('/', '-')}-375.png`,
    })
  }
})
