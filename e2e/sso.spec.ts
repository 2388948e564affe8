import { expect, test } from '@playwright/test'
import { SSO_MESSAGES } from '../contract/auth-texts.ts'
import { SSO_TEXTS } from '../contract/sso.ts'
import { hashPassword } from '../server/auth/password.ts'
import { newAccount, registerAndConfirm } from './support/accounts.ts'
import { sql } from './support/db.ts'
import { IDP_CLIENTS, IDP_URL } from './support/env.ts'

/**
 * Single sign-on and Google sign-in through a real OpenID Connect provider on loopback: an admin
 * sets the provider in Settings' API, a member signs in through it from the login page; an SSO
 * error code shows its text and leaves the address; a member signs in with Google.
 */

async function organisationWithDomain(page: import('@playwright/test').Page, name: string) {
  const admin = newAccount(name)
  await registerAndConfirm(page, admin)
  const domain = `${name}-${Date.now().toString(36)}.test`
  await sql(
    `insert into organization_domains (domain, org_id)
     select $2, org_id from users where lower(email) = lower($1)`,
    [admin.email, domain],
  )
  const access = await page.evaluate(() => localStorage.getItem('access_token'))
  return { admin, domain, headers: { authorization: `Bearer ${access}` } }
}

async function member(adminEmail: string, email: string) {
  await sql(
    `insert into users (org_id, email, first_name, last_name, password_hash, role, status, email_confirmed_at)
     select org_id, $2, 'Mem', 'Ber', $3, 'contributor', 'active', now() from users where lower(email) = lower($1)`,
    [adminEmail, email, await hashPassword('Unused-password-of-member-42')],
  )
}

test('a member signs in through the organisation’s identity provider', async ({
  page,
  browser,
  request,
}) => {
  const { admin, domain } = await organisationWithDomain(page, 'sso')
  // the admin sets the provider in Settings, tests the connection and saves
  await page.goto('/settings/sso')
  const section = page.getByRole('region', { name: 'Single sign-on' })
  await section.getByLabel('People of the domains below sign in').check()
  await section.getByRole('combobox', { name: 'Identity provider', exact: true }).click()
  await page
    .getByRole('option', { name: 'OpenID Connect (Microsoft Entra ID, Okta or any provider)' })
    .click()
  await section.getByLabel('Issuer').fill(IDP_URL)
  await section.getByLabel('Client ID').fill(IDP_CLIENTS.entra.client_id)
  await section.getByLabel('Client secret').fill(IDP_CLIENTS.entra.client_secret)
  await section.getByLabel('Email domains').fill(domain)
  await section.getByLabel('Require single sign-on').check()
  await section.getByRole('button', { name: 'Test connection' }).click()
  await expect(section.getByRole('status')).toHaveText(SSO_TEXTS.testOk)
  await section.getByRole('button', { name: 'Save changes' }).click()
  await expect(page.getByText(SSO_TEXTS.settingsSaved)).toBeVisible()
  await expect(section.getByText('/api/v1/admin/sso/callback/microsoft_oidc/')).toBeVisible()
  await expect(section.getByLabel('Client secret')).toHaveValue('')
  const email = `ada@${domain}`
  await member(admin.email, email)

  const context = await browser.newContext()
  const visitor = await context.newPage()
  await visitor.goto('/login')
  await visitor.getByLabel('Work Email').fill(email)
  await visitor.getByRole('button', { name: 'Continue', exact: true }).click()
  await visitor.getByRole('button', { name: `Continue to ${admin.organization}` }).click()
  // through the provider and back: the one-time code is exchanged, then / after 1.5 s
  await expect(visitor.getByText('Signed in. Opening Quire...')).toBeVisible()
  await expect(visitor).toHaveURL(/\/$/)
  await expect(visitor.getByTestId('page-title')).toBeVisible()
  // the organisation requires SSO: the password is refused
  const password = await request.post('/api/v1/admin/login/', {
    data: { email, password: 'Unused-password-of-member-42' },
  })
  expect(password.status()).toBe(403)
  await context.close()
})

test('an SSO error code shows its text and leaves the address', async ({ page }) => {
  await page.goto('/login?message=invalid_state')
  await expect(page.getByText(SSO_MESSAGES.invalid_state as string)).toBeVisible()
  await expect(page).toHaveURL(/\/login$/)
  await page.goto('/login?message=something_else')
  await expect(
    page.getByText('An error occurred during SSO login. Please try again.'),
  ).toBeVisible()
})

test('a member signs in with Google', async ({ page, browser, request }) => {
  const { admin, domain, headers } = await organisationWithDomain(page, 'google')
  const saved = await request.post('/api/v1/admin/sso/settings/update/', {
    headers,
    data: {
      enabled: true,
      provider: 'google',
      domains: [domain],
      enforce_sso: false,
      jit_provisioning: false,
    },
  })
  expect(saved.status(), await saved.text()).toBe(200)
  const email = `lin@${domain}`
  await member(admin.email, email)
  // who the loopback Google signs in
  await request.post(`${IDP_URL}/__next-account`, {
    data: { sub: `google-${email}`, email, email_verified: true, hd: domain },
  })
  const context = await browser.newContext()
  const visitor = await context.newPage()
  await visitor.goto('/login')
  await visitor.getByRole('button', { name: 'Google' }).click()
  await expect(visitor).toHaveURL(/\/$/, { timeout: 15_000 })
  await expect(visitor.getByTestId('page-title')).toBeVisible()
  await context.close()
})
