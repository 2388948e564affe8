import { type Browser, expect, type Page } from '@playwright/test'
import { hashPassword } from '../../server/auth/password.ts'
import { type Account, newAccount } from '../../tests/support/account.ts'
import { sql } from './db.ts'
import { linkIn, waitForMail } from './mailbox.ts'

export { newAccount }
export type TestAccount = Account

export async function register(page: Page, account: TestAccount) {
  await page.goto('/register')
  await page.getByLabel('Work Email').fill(account.email)
  await page.getByLabel('Password', { exact: true }).fill(account.password)
  await page.getByLabel('First name').fill(account.firstName)
  await page.getByLabel('Last name').fill(account.lastName)
  await page.getByLabel('Organisation').fill(account.organization)
  await page.getByRole('button', { name: 'Register' }).click()
  await expect(page.getByText('Registration Successful!')).toBeVisible()
  await expect(page.getByText('Please check your email for the activation link.')).toBeVisible()
}

/** Registers, follows the emailed confirmation link and lands signed in on the dashboard. */
export async function registerAndConfirm(page: Page, account: TestAccount) {
  await register(page, account)
  const mail = await waitForMail(account.email, /confirm|activat|verify/i)
  await page.goto(linkIn(mail, '/confirm_email'))
  await expect(page).toHaveURL(/\/$/)
  await expect(page.getByTestId('page-title')).toHaveText('Home')
}

/**
 * A new account (`newAccount(label)`, with `changes`) signed up: registered, confirmed by its
 * emailed link and signed in on the dashboard (as `registerAndConfirm`).
 */
export async function signedUp(page: Page, label: string, changes: Partial<TestAccount> = {}) {
  const account = { ...newAccount(label), ...changes }
  await registerAndConfirm(page, account)
  return account
}

export async function signInWithPassword(page: Page, email: string, password: string) {
  await page.goto('/login')
  await page.getByLabel('Work Email').fill(email)
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByText('Enter password')).toBeVisible()
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
}

export async function logOut(page: Page) {
  await page.getByRole('button', { name: 'User menu' }).click()
  await page.getByRole('menuitem', { name: 'Log out' }).click()
  // signing out ends the session on the server first: slower when the workers are busy
  await expect(page).toHaveURL(/\/login$/, { timeout: 20_000 })
}

const COLLEAGUE_PASSWORD = 'Colleague-journey-password-42'

/**
 * A colleague of `adminEmail`'s organisation with `role` (inserted as an administrator would
 * invite them), signed in on a page of a browser context of their own.
 */
export async function colleague(
  browser: Browser,
  adminEmail: string,
  role: string,
  first = 'Role',
) {
  const email = `${first.toLowerCase()}-${role}-${Date.now()}@example.com`
  const last = first === 'Role' ? role : 'Keel'
  const [row] = await sql<{ id: string }>(
    `insert into users (org_id, email, first_name, last_name, password_hash, role, status, email_confirmed_at)
     select org_id, $2, $3, $4, $5, $6, 'active', now() from users where lower(email) = lower($1)
     returning id`,
    [adminEmail, email, first, last, await hashPassword(COLLEAGUE_PASSWORD), role],
  )
  const context = await browser.newContext()
  const page = await context.newPage()
  await signInWithPassword(page, email, COLLEAGUE_PASSWORD)
  await expect(page).toHaveURL(/\/$/)
  return { id: Number(row?.id), name: `${first} ${last}`, email, page, context }
}
