import { expect, type Page, test } from '@playwright/test'
import { ROLE_TEXTS, type Role } from '../contract/roles.ts'
import { logOut, newAccount, register, signedUp, signInWithPassword } from './support/accounts.ts'
import { linkIn, waitForMail } from './support/mailbox.ts'

/**
 * Settings → People: an admin invites a colleague who sets a password and signs in; changes a
 * role; removes someone whose open session then ends.
 */

/** Opens the select named `name` in `scope` and chooses the option `option`. */
async function choose(
  page: Page,
  scope: Page | ReturnType<Page['getByRole']>,
  name: string | RegExp,
  option: string,
) {
  const trigger = scope.getByRole('combobox', { name })
  await trigger.click()
  // the option of this select's own list (the one its trigger controls): another select's list
  // may still be closing
  const list = await trigger.getAttribute('aria-controls')
  const options = list ? page.locator(`[id="${list}"]`) : page
  await options.getByRole('option', { name: option, exact: true }).click()
}

async function inviteFromSettings(page: Page, email: string, role: Role) {
  await page.goto('/settings/people')
  await expect(page.getByRole('heading', { name: 'People' })).toBeVisible()
  await page.getByRole('button', { name: 'Invite' }).click()
  const dialog = page.getByRole('dialog', { name: 'Invite a colleague' })
  await dialog.getByLabel(/work email/i).fill(email)
  await dialog.getByLabel('First name').fill('Grace')
  await dialog.getByLabel('Last name').fill('Hopper')
  await choose(page, dialog, 'Role', ROLE_TEXTS[role].name)
  await dialog.getByRole('button', { name: 'Send invitation' }).click()
  await expect(
    page.getByRole('status').filter({ hasText: `Invitation sent to ${email}` }),
  ).toBeVisible()
  await expect(dialog).toBeHidden()
}

async function acceptInvite(page: Page, email: string, password: string) {
  const mail = await waitForMail(email, /invit/i)
  await page.goto(linkIn(mail, '/set-password'))
  await page.getByLabel(/^new password/i).fill(password)
  await page.getByLabel(/confirm/i).fill(password)
  await page.getByRole('button', { name: /set password/i }).click()
  // the accepted invitation signs the person in at once (issue 39)
  await expect(page).toHaveURL(/\/$/, { timeout: 15_000 })
}

test('an admin invites a colleague from Settings, who sets a password and signs in', async ({
  page,
}) => {
  await signedUp(page, 'people-admin')
  const colleague = `grace-${Date.now()}@example.com`
  await inviteFromSettings(page, colleague, 'approver')
  const people = page.getByRole('list', { name: 'People' })
  const row = people.getByRole('listitem').filter({ hasText: colleague })
  await expect(row).toContainText('Invited')
  await expect(row.getByRole('combobox', { name: /Role of/ })).toHaveText('Approver')
  // the roles are explained to everyone
  await expect(page.getByRole('heading', { name: 'Roles' })).toBeVisible()
  await expect(page.getByText(/approves answers/).first()).toBeVisible()
  await logOut(page)

  await acceptInvite(page, colleague, 'Grace-first-password-42')
  // not an admin: Settings explains, and offers no people to manage
  await page.goto('/settings/people')
  await expect(page.getByText(/You are an approver of/)).toBeVisible()
  await expect(page.getByRole('heading', { name: 'People' })).toBeHidden()
})

test('an admin changes a role and removes a colleague, whose open session ends at once', async ({
  browser,
  page,
}) => {
  await signedUp(page, 'remover')
  const colleague = `leaver-${Date.now()}@example.com`
  await inviteFromSettings(page, colleague, 'contributor')

  const theirs = await browser.newContext()
  const theirPage = await theirs.newPage()
  await acceptInvite(theirPage, colleague, 'Leaver-password-42')

  await page.reload()
  const row = page.getByRole('list', { name: 'People' }).getByRole('listitem').filter({
    hasText: colleague,
  })
  await expect(row).toContainText('Active')
  await choose(page, row, /Role of/, ROLE_TEXTS.viewer.name)
  await expect(row.getByRole('combobox', { name: /Role of/ })).toHaveText(ROLE_TEXTS.viewer.name)
  // the only admin cannot step down: the server says why
  const mine = page.getByRole('list', { name: 'People' }).getByRole('listitem').filter({
    hasText: '(you)',
  })
  await choose(page, mine, /Role of/, ROLE_TEXTS.viewer.name)
  await expect(page.getByRole('alert').filter({ hasText: /last admin/ })).toBeVisible()
  await expect(mine.getByRole('combobox', { name: /Role of/ })).toHaveText(ROLE_TEXTS.admin.name)

  await row.getByRole('button', { name: /Actions for/ }).click()
  await page.getByRole('menuitem', { name: 'Remove' }).click()
  const confirm = page.getByRole('alertdialog', { name: /Remove/ })
  await confirm.getByRole('button', { name: 'Remove' }).click()
  await expect(
    page.getByRole('status').filter({ hasText: 'Their sessions have ended' }),
  ).toBeVisible()
  await expect(row).toBeHidden()

  // their open page: the next call finds the session ended
  await theirPage.goto('/repository')
  await expect(theirPage).toHaveURL(/\/login/, { timeout: 15_000 })
  await theirs.close()
})

test('an admin renames the organisation, sets the answer style, and reads and downloads the audit log', async ({
  page,
}) => {
  const admin = await signedUp(page, 'org-admin')
  await page.goto('/settings/organization')
  const organisation = page.getByRole('region', { name: 'Organisation' })
  await expect(organisation.getByLabel('Name')).toHaveValue(admin.organization)
  const save = organisation.getByRole('button', { name: 'Save changes' })
  await expect(save).toBeDisabled()
  await organisation.getByLabel('Name').fill('Acme Security')
  await choose(page, organisation, 'Answer tone', 'Formal')
  await save.click()
  await expect(page.getByText('Settings saved')).toBeVisible()
  await expect(save).toBeDisabled()
  // a domain no admin has an address at is refused, and said why
  await organisation.getByLabel('Verified email domains').fill('not-ours.test')
  await organisation.getByRole('button', { name: 'Add domain' }).click()
  await save.click()
  await expect(organisation.getByRole('alert')).toContainText('not-ours.test')
  // a logo: an SVG is refused, a PNG shows
  await organisation.getByTestId('logo-picker').setInputFiles({
    name: 'logo.svg',
    mimeType: 'image/svg+xml',
    buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
  })
  await expect(organisation.getByText('The logo must be a PNG, JPEG or WebP image')).toBeVisible()
  await organisation.getByTestId('logo-picker').setInputFiles({
    name: 'logo.png',
    mimeType: 'image/png',
    buffer: Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      'base64',
    ),
  })
  await expect(organisation.getByRole('img', { name: 'The organisation’s logo' })).toBeVisible()

  // the audit log is its own section of Settings, with its own address
  await page
    .getByRole('navigation', { name: 'Settings' })
    .getByRole('link', { name: 'Audit log' })
    .click()
  await expect(page).toHaveURL(/\/settings\/audit$/)
  const log = page.getByRole('list', { name: 'Audit log' })
  await expect(log.getByRole('listitem').first()).toContainText('Logo changed')
  await expect(log.getByRole('listitem').nth(1)).toContainText('Organisation settings changed')
  await expect(log.getByRole('listitem').nth(1)).toContainText('Acme Security')
  await expect(log.getByRole('listitem').nth(1)).toContainText(admin.email)
  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Download CSV' }).click()
  expect((await download).suggestedFilename()).toBe('audit-log.csv')
  await choose(page, page, 'Filter the audit log', 'People')
  await expect(log).toContainText('Nothing recorded yet.')
})

test('someone at the verified domain asks to join, confirms the address, and is approved', async ({
  page,
}) => {
  const domain = `join-${Date.now()}.test`
  const admin = await signedUp(page, 'join-admin', { email: `boss@${domain}` })
  await page.goto('/settings/organization')
  const organisation = page.getByRole('region', { name: 'Organisation' })
  await organisation.getByLabel('Verified email domains').fill(domain)
  await organisation.getByRole('button', { name: 'Add domain' }).click()
  await organisation.getByRole('button', { name: 'Save changes' }).click()
  await expect(page.getByText('Settings saved')).toBeVisible()
  await expect(organisation.getByRole('list', { name: 'Verified domains' })).toContainText(domain)
  await logOut(page)

  const requester = { ...newAccount('joiner'), email: `joiner@${domain}` }
  await register(page, requester)
  const mail = await waitForMail(requester.email, /confirm|activat|verify/i)
  await page.goto(linkIn(mail, '/confirm_email'))
  await expect(page.getByRole('heading', { name: 'Request sent' })).toBeVisible()
  await expect(page.getByText(/must approve your request to join/)).toBeVisible()
  // signing in before the approval says what it waits for
  await signInWithPassword(page, requester.email, requester.password)
  await expect(page.getByText(/waiting for an admin’s approval/)).toBeVisible()

  await signInWithPassword(page, admin.email, admin.password)
  await expect(page).toHaveURL(/\/$/)
  await page.goto('/settings/people')
  const row = page.getByRole('list', { name: 'People' }).getByRole('listitem').filter({
    hasText: requester.email,
  })
  await expect(row).toContainText('Asks to join')
  await row.getByRole('button', { name: 'Approve' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Approved' })).toBeVisible()
  await expect(row).toContainText('Active')
  await logOut(page)

  await signInWithPassword(page, requester.email, requester.password)
  await expect(page).toHaveURL(/\/$/)
})
