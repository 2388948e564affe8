import { test } from '@playwright/test'
import { newAccount, registerAndConfirm } from './support/accounts.ts'

for (const width of [1440, 375]) {
  test(`shots ${width}`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 })
    await registerAndConfirm(page, newAccount(`shot${width}`))
    await page.goto('/settings')
    await page.getByTestId('usage-max_users').waitFor()
    await page.getByRole('heading', { name: 'Plan and usage' }).scrollIntoViewIfNeeded()
    await page.screenshot({ path: `/tmp/shot-plan-${width}.png` })
    await page.getByRole('button', { name: 'Compare plans' }).click()
    await page.getByRole('article').first().waitFor()
    await page.screenshot({ path: `/tmp/shot-pricing-${width}.png` })
    await page.getByRole('button', { name: /Yearly/ }).click()
    await page.getByRole('button', { name: 'Choose Team' }).click()
    await page.getByRole('alert').waitFor()
    await page.screenshot({ path: `/tmp/shot-pricing-err-${width}.png` })
    await page.goto('/payouts?data=bad')
    await page.getByText('Failed to process webhook').waitFor()
    await page.screenshot({ path: `/tmp/shot-payouts-${width}.png` })
  })
}
