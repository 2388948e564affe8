import { expect, type Page, test } from '@playwright/test'
import { BILLING_TEXTS } from '../contract/billing.ts'
import { signatureHeader } from '../server/modules/billing/signature.ts'
import { newAccount, registerAndConfirm } from './support/accounts.ts'
import { sql } from './support/db.ts'
import { PADDLE_TEST_SECRET } from './support/env.ts'

/**
 * Plans and payments: 'Choose Your Plan' from Settings with the Monthly/Yearly toggle and the
 * checkout refused while the provider is off; a limit refusal opening the dialog; the payment
 * landing page with a payment the provider's signed delivery recorded, and with an invalid one.
 */

async function adminPage(page: Page, name: string) {
  const account = newAccount(name)
  await registerAndConfirm(page, account)
  const access = await page.evaluate(() => localStorage.getItem('access_token'))
  return { account, headers: { authorization: `Bearer ${access}` } }
}

test('open the plans from Settings, switch to yearly, and meet the switched-off checkout', async ({
  page,
}) => {
  await adminPage(page, 'plans')
  await page.goto('/settings/plan')
  await expect(page.getByTestId('plan-summary')).toContainText('Free plan')
  await expect(page.getByTestId('usage-max_users')).toContainText('1 of 3')
  await page.getByRole('button', { name: 'Compare plans' }).click()
  const dialog = page.getByRole('dialog', { name: BILLING_TEXTS.dialogTitle })
  await expect(dialog).toBeVisible()
  const cards = dialog.getByRole('article')
  await expect(cards).toHaveCount(4)
  // sorted by ascending price, the popular one marked, the current one not for sale
  await expect(cards.nth(0)).toContainText('Free')
  await expect(cards.nth(0).getByRole('button', { name: BILLING_TEXTS.currentPlan })).toBeDisabled()
  await expect(cards.nth(1)).toContainText('$99/month')
  await expect(cards.nth(1)).toContainText(BILLING_TEXTS.mostPopular)
  await expect(cards.nth(3).getByRole('link', { name: BILLING_TEXTS.contactSales })).toBeVisible()

  await dialog.getByRole('button', { name: /Yearly/ }).click()
  await expect(dialog.getByRole('button', { name: /Yearly/ })).toHaveAttribute(
    'aria-pressed',
    'true',
  )
  await expect(dialog.getByText(BILLING_TEXTS.saveBadge)).toBeVisible()
  await expect(cards.nth(1)).toContainText('$950/year')
  await expect(cards.nth(2)).toContainText('$2,870/year')

  await cards.nth(1).getByRole('button', { name: 'Choose Team' }).click()
  await expect(dialog.getByRole('alert')).toHaveText(BILLING_TEXTS.providerNotInitialized)
  await expect(dialog).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
})

test('a refusal at a limit opens the plans with its reason', async ({ page }) => {
  const { account } = await adminPage(page, 'limit')
  await sql(
    `update licenses set max_repository = 1
      where org_id = (select org_id from users where lower(email) = lower($1))`,
    [account.email],
  )
  await page.goto('/repository')
  await expect(page.getByTestId('page-title').filter({ hasText: 'Repository' })).toBeVisible()
  const file = (name: string) => ({
    name,
    mimeType: 'text/plain',
    buffer: Buffer.from(`${name}: backups are encrypted at rest.`),
  })
  await page.getByTestId('file-picker').setInputFiles([file('first.txt')])
  await expect(page.getByText('first.txt').first()).toBeVisible()
  await page.getByTestId('file-picker').setInputFiles([file('second.txt')])
  const dialog = page.getByRole('dialog', { name: BILLING_TEXTS.dialogTitle })
  await expect(dialog).toBeVisible()
  await expect(dialog.getByRole('status')).toHaveText(
    'Your plan allows 1 files in the repository. Delete some files or upgrade your plan to add more.',
  )
  await expect(dialog.getByRole('article')).toHaveCount(4)
})

test('the payment landing page: a payment the provider confirmed, and an invalid one', async ({
  page,
  request,
}) => {
  const { headers } = await adminPage(page, 'payouts')
  const tiers = (await (await request.get('/api/v1/admin/license_tiers/', { headers })).json()) as {
    id: string
    paddle_price_id: string | null
  }[]
  const priceId = tiers.find((tier) => tier.id === 'team-monthly')?.paddle_price_id
  expect(priceId).toBeTruthy()
  const checkout = await request.post('/api/v1/payouts/checkout/', {
    headers,
    data: { paddle_price_id: priceId },
  })
  expect(checkout.status()).toBe(201)
  const { reference } = (await checkout.json()) as { reference: string }
  const transaction = `txn_01e2e${Date.now().toString(36)}`
  // the provider's delivery, signed as Paddle signs it
  const raw = JSON.stringify({
    event_id: `evt_01e2e${Date.now().toString(36)}`,
    event_type: 'transaction.completed',
    occurred_at: new Date().toISOString(),
    data: {
      id: transaction,
      status: 'completed',
      subscription_id: null,
      items: [{ price: { id: priceId }, quantity: 1 }],
      custom_data: { quire_reference: reference },
    },
  })
  const delivery = await request.post('/api/v1/payouts/webhook/', {
    headers: {
      'content-type': 'application/json',
      'paddle-signature': signatureHeader(PADDLE_TEST_SECRET, Math.floor(Date.now() / 1000), raw),
    },
    data: raw,
  })
  expect(delivery.status()).toBe(200)

  await page.goto(`/payouts?data=${transaction}`)
  await expect(page.getByText(BILLING_TEXTS.webhookSuccess)).toBeVisible()
  await expect(page.getByText('Your plan is now Team. Thank you!')).toBeVisible()
  await page.getByRole('link', { name: BILLING_TEXTS.returnToDashboard }).click()
  await expect(page).toHaveURL(/\/$/)
  await page.goto('/settings/plan')
  await expect(page.getByTestId('plan-summary')).toContainText('Team plan')

  await page.goto('/payouts?data=not-a-payment')
  await expect(page.getByText(BILLING_TEXTS.webhookFailed)).toBeVisible()
  await expect(page.getByRole('link', { name: BILLING_TEXTS.returnToDashboard })).toBeVisible()
})
