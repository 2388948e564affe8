import { expect, type Page, test } from '@playwright/test'
import { fillText } from '../contract/knowledge.ts'
import { ORGANIZATION_TEXTS } from '../contract/organization.ts'
import { newAccount, registerAndConfirm } from './support/accounts.ts'
import { sql } from './support/db.ts'
import { publishTxt } from './support/dns.ts'

/**
 * Proof of a domain by DNS in Settings → Organisation: an admin asks for the TXT record of a
 * domain, copies its value, checks it before it is published (the server's not-found text shows)
 * and after (the domain shows as DNS verified); a domain verified only by mailbox offers the same
 * from its row. The section is photographed at 1440 and 375 px and must fit both.
 */

const shots = process.env.SCREENSHOTS_DIR ?? 'test-results/screens'

async function fits(page: Page, width: number, name: string) {
  await page.setViewportSize({ width, height: width < 768 ? 812 : 900 })
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  )
  expect(overflow, `settings at ${width}px`).toBeLessThanOrEqual(0)
  // the whole page from its top (the sticky header stays there), cut to the section
  await page.evaluate(() => window.scrollTo(0, 0))
  const box = await page.getByRole('region', { name: 'Organisation' }).boundingBox()
  if (!box) throw new Error('the Organisation section is not shown')
  await page.screenshot({
    path: `${shots}/${name}-${width}.png`,
    fullPage: true,
    clip: { x: 0, y: Math.max(0, box.y - 80), width, height: box.height + 100 },
  })
}

test('an admin proves a domain by DNS', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  const admin = newAccount('dns')
  await registerAndConfirm(page, admin)
  const id = Date.now().toString(36)
  const domain = `proof-${id}.test`
  // a domain the organisation holds through an admin's mailbox only
  const mailbox = `mailbox-${id}.test`
  await sql(
    `insert into organization_domains (domain, org_id)
     select $2, org_id from users where lower(email) = lower($1)`,
    [admin.email, mailbox],
  )

  await page.goto('/settings/organization')
  const section = page.getByRole('region', { name: 'Organisation' })
  const domains = section.getByRole('list', { name: 'Verified domains' })
  const mailboxRow = domains.getByRole('listitem').filter({ hasText: mailbox })
  await expect(mailboxRow).toContainText(ORGANIZATION_TEXTS.mailboxBadge)
  await expect(section.getByText(ORGANIZATION_TEXTS.dnsWhy)).toBeVisible()

  // the mailbox domain's row asks for its record
  await mailboxRow.getByRole('button', { name: `Verify by DNS: ${mailbox}` }).click()
  const mailboxPanel = section.getByRole('region', { name: `DNS record for ${mailbox}` })
  await expect(mailboxPanel.getByTestId('dns-record-value')).toHaveText(/^quire-verification=/)
  await expect(section.getByLabel('Verify a domain by DNS')).toHaveValue(mailbox)

  // a domain the organisation does not hold yet, typed in the field
  await section.getByLabel('Verify a domain by DNS').fill(domain)
  await section.getByRole('button', { name: 'Verify by DNS', exact: true }).click()
  const panel = section.getByRole('region', { name: `DNS record for ${domain}` })
  await expect(panel.getByText(fillText(ORGANIZATION_TEXTS.dnsPublish, { domain }))).toBeVisible()
  await expect(mailboxPanel).toHaveCount(0)
  const value = (await panel.getByTestId('dns-record-value').textContent()) ?? ''
  expect(value).toMatch(/^quire-verification=[\w-]+$/)
  await expect(panel.getByRole('definition')).toHaveText(['TXT', domain, /quire-verification=/])

  await panel.getByRole('button', { name: 'Copy value' }).click()
  await expect(panel.getByRole('button', { name: ORGANIZATION_TEXTS.copied })).toBeVisible()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(value)

  // nothing is published yet: the server's reason shows in place
  const check = panel.getByRole('button', { name: 'Check DNS record' })
  await check.click()
  await expect(panel.getByRole('alert')).toHaveText(
    fillText(ORGANIZATION_TEXTS.dnsNotFound, { domain, value }),
  )
  await fits(page, 1440, 'domains-not-found')
  await fits(page, 375, 'domains-not-found')
  await page.setViewportSize({ width: 1440, height: 900 })

  // published: the check succeeds and the domain joins the list, proved by DNS
  await publishTxt(domain, ['v=spf1 -all', value])
  await check.click()
  await expect(panel.getByText(ORGANIZATION_TEXTS.dnsVerified)).toBeVisible()
  await expect(panel.getByRole('alert')).toHaveCount(0)
  const provedRow = domains.getByRole('listitem').filter({ hasText: domain })
  await expect(provedRow).toContainText(ORGANIZATION_TEXTS.dnsBadge)
  await expect(provedRow.getByRole('button', { name: `Verify by DNS: ${domain}` })).toHaveCount(0)
  await expect(section.getByRole('button', { name: 'Save changes' })).toBeDisabled()
  await fits(page, 1440, 'domains-verified')
  await fits(page, 375, 'domains-verified')
  await panel.getByRole('button', { name: 'Done' }).click()
  await expect(panel).toHaveCount(0)

  // it is the organisation's, proved, after a reload too
  await page.setViewportSize({ width: 1440, height: 900 })
  await page.reload()
  await expect(
    page
      .getByRole('list', { name: 'Verified domains' })
      .getByRole('listitem')
      .filter({ hasText: domain }),
  ).toContainText(ORGANIZATION_TEXTS.dnsBadge)
})
