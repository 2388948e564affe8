import { expect, type Page } from '@playwright/test'
import type { Account } from '../../tests/support/account.ts'
import { linkIn, waitForMail } from './mailbox.ts'

export { newAccount } from '../../tests/support/account.ts'
export type TestAccount = Account

export async function register(page: Page, account: TestAccount) {
  await page.goto('/register')
  await page.getByLabel('Work Email').fill(account.email)
  await page.getByLabel('Password', { exact: true }).fill(account.password)
  await page.getByLabel('First name').fill(account.firstName)
  await page.getByLabel('Last name').fill(account.lastName)
  await page.getByLabel('Organization').fill(account.organization)
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
