import { mkdirSync } from 'node:fs'
import { expect, type Page } from '@playwright/test'

/** A full-page screenshot at 1440 and at 375 px into test-results/screens/; back to 1440 after. */
export async function shotAtBothWidths(page: Page, name: string) {
  await page.setViewportSize({ width: 1440, height: 900 })
  await page.screenshot({ path: `test-results/screens/${name}-1440.png`, fullPage: true })
  await page.setViewportSize({ width: 375, height: 812 })
  await page.screenshot({ path: `test-results/screens/${name}-375.png`, fullPage: true })
  await page.setViewportSize({ width: 1440, height: 900 })
}

const DOCS_SCREENS = 'docs/screens'

/**
 * A full-page screenshot at 1440 and at 375 px into docs/screens/ (kept, and replaced on each
 * run, so that they show the pages as they are), and no page wider than a phone at 375 px.
 */
export async function docsShot(page: Page, name: string) {
  mkdirSync(DOCS_SCREENS, { recursive: true })
  await page.setViewportSize({ width: 1440, height: 900 })
  await page.screenshot({ path: `${DOCS_SCREENS}/${name}-1440.png`, fullPage: true })
  await page.setViewportSize({ width: 375, height: 812 })
  await page.screenshot({ path: `${DOCS_SCREENS}/${name}-375.png`, fullPage: true })
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  )
  expect(overflow, `${name} is wider than 375 px`).toBeLessThanOrEqual(0)
  await page.setViewportSize({ width: 1440, height: 900 })
}
