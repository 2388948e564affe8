import type { Page } from '@playwright/test'

/** A full-page screenshot at 1440 and at 375 px into test-results/screens/; back to 1440 after. */
export async function shotAtBothWidths(page: Page, name: string) {
  await page.setViewportSize({ width: 1440, height: 900 })
  await page.screenshot({ path: `test-results/screens/${name}-1440.png`, fullPage: true })
  await page.setViewportSize({ width: 375, height: 812 })
  await page.screenshot({ path: `test-results/screens/${name}-375.png`, fullPage: true })
  await page.setViewportSize({ width: 1440, height: 900 })
}
