import { expect, test } from '@playwright/test'
import { logOut, newAccount, register, signedUp, signInWithPassword } from './support/accounts.ts'
import { sql } from './support/db.ts'
import { linkIn, mailsTo, waitForMail } from './support/mailbox.ts'

test.describe('accounts and sessions', () => {
  test('register, confirm by the emailed link, land on the dashboard, log out', async ({
    page,
  }) => {
    const account = await signedUp(page, 'register')
    // a new organisation's home: the page's title once, and the first steps, none done yet
    await expect(page.getByTestId('page-title')).toHaveText('Home')
    await expect(page.getByRole('heading', { name: 'Get started' })).toBeVisible()
    await expect(page.getByTestId('first-steps')).toContainText('0 of 4 done')
    await page.getByRole('button', { name: 'User menu' }).click()
    await expect(page.getByTestId('user-menu-name')).toHaveText(
      `${account.firstName} ${account.lastName}`,
    )
    await expect(page.getByTestId('user-menu-email')).toHaveText(account.email)
    await page.keyboard.press('Escape')
    await logOut(page)
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull()
    // signed out: private pages send back to /login
    await page.goto('/repository')
    await expect(page).toHaveURL(/\/login$/)
    // the confirmation link opened again says the address is confirmed and offers sign-in (39)
    const mail = await waitForMail(account.email, /confirm|activat|verify/i)
    await page.goto(linkIn(mail, '/confirm_email'))
    await expect(page.getByRole('heading', { name: 'Email already confirmed' })).toBeVisible()
    await expect(
      page.getByText('This email address is already confirmed. Sign in to continue.'),
    ).toBeVisible()
    await page.getByRole('link', { name: 'Sign in' }).click()
    await expect(page).toHaveURL(/\/login$/)
    // this server has Google configured: the login offers it
    await expect(page.getByRole('button', { name: 'Google' })).toBeVisible()
  })

  test("a wrong password shows 'Wrong credentials'; the right one signs in", async ({ page }) => {
    const account = await signedUp(page, 'wrongpw')
    await logOut(page)
    await signInWithPassword(page, account.email, `${account.password}-nope`)
    await expect(page.getByText('Wrong credentials')).toBeVisible()
    await page.getByLabel('Password', { exact: true }).fill(account.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page).toHaveURL(/\/$/)
    await expect(page.getByTestId('page-title')).toHaveText('Home')
  })

  test('forgot password, reset by the emailed link, sign in with the new password', async ({
    page,
  }) => {
    const account = await signedUp(page, 'reset')
    await logOut(page)
    await page.getByLabel('Work Email').fill(account.email)
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.getByRole('link', { name: 'Forgot your password?' }).click()
    await expect(page).toHaveURL(/\/forgot-password$/)
    await page.getByLabel(/email/i).fill(account.email)
    await page.getByRole('button', { name: 'Send Reset Link' }).click()
    await expect(page.getByText(/1 hour/)).toBeVisible()
    const mail = await waitForMail(account.email, /reset/i)
    await page.goto(linkIn(mail, '/reset-password'))
    await expect(page.getByRole('heading', { name: 'Reset Password' })).toBeVisible()
    const newPassword = `${account.password}-renewed`
    await page.getByLabel(/^new password/i).fill(newPassword)
    await page.getByLabel(/confirm/i).fill(newPassword)
    await page.getByRole('button', { name: /reset password/i }).click()
    await expect(page).toHaveURL(/\/login/, { timeout: 15_000 })
    await signInWithPassword(page, account.email, account.password)
    await expect(page.getByText('Wrong credentials')).toBeVisible()
    await signInWithPassword(page, account.email, newPassword)
    await expect(page).toHaveURL(/\/$/)
  })

  test("an expired reset link shows 'Reset Link Expired'; 'Send New Reset Link' mails a new one", async ({
    page,
  }) => {
    const account = await signedUp(page, 'expired')
    await logOut(page)
    await page.goto('/forgot-password')
    await page.getByLabel(/email/i).fill(account.email)
    await page.getByRole('button', { name: 'Send Reset Link' }).click()
    const first = await waitForMail(account.email, /reset/i)
    // the server's clock moves past the link's hour
    await sql(
      `update link_tokens set expires_at = now() - interval '1 minute', created_at = now() - interval '61 minutes'
         where purpose = 'password_reset'
           and user_id = (select id from users where lower(email) = lower($1))`,
      [account.email],
    )
    await page.goto(linkIn(first, '/reset-password'))
    await expect(page.getByRole('heading', { name: 'Reset Link Expired' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Use Different Email' })).toBeVisible()
    await page.getByRole('button', { name: 'Send New Reset Link' }).click()
    const second = await waitForMail(account.email, /reset/i, 2)
    expect(linkIn(second, '/reset-password')).not.toBe(linkIn(first, '/reset-password'))
    await page.goto(linkIn(second, '/reset-password'))
    await expect(page.getByRole('heading', { name: 'Reset Password' })).toBeVisible()
  })

  test('an invite link sets a first password', async ({ page, request }) => {
    await signedUp(page, 'admin')
    const access = await page.evaluate(() => localStorage.getItem('access_token'))
    const invitee = `invitee-${Date.now()}@example.com`
    const invite = await request.post('/api/v1/admin/users/invite/', {
      headers: { Authorization: `Bearer ${access}` },
      data: { email: invitee, first_name: 'Grace', last_name: 'Hopper', role: 'contributor' },
    })
    expect(invite.status(), await invite.text()).toBeLessThan(300)
    await logOut(page)
    const mail = await waitForMail(invitee, /invit/i)
    await page.goto(linkIn(mail, '/set-password'))
    await expect(page.getByRole('heading', { name: 'Set Your Password' })).toBeVisible()
    // the address keeps the link's uid as it came, never as JSON text (uid=%222%22; issue 39)
    expect(new URL(page.url()).search).toMatch(/^\?uid=\d+&token=[^&%]+$/)
    const password = 'A-first-password-42'
    await page.getByLabel(/^new password/i).fill(password)
    await page.getByLabel(/confirm/i).fill(password)
    await page.getByRole('button', { name: /set password/i }).click()
    // the accepted invitation signs the person in at once (issue 39)
    await expect(page).toHaveURL(/\/$/, { timeout: 15_000 })
    await expect(page.getByTestId('page-title')).toHaveText('Home')
  })

  test("an admin's one-time sign-in link signs a colleague in once", async ({ page, request }) => {
    await signedUp(page, 'magic-admin')
    const access = await page.evaluate(() => localStorage.getItem('access_token'))
    const headers = { Authorization: `Bearer ${access}` }
    const colleague = `colleague-${Date.now()}@example.com`
    const invite = await request.post('/api/v1/admin/users/invite/', {
      headers,
      data: { email: colleague, first_name: 'Katherine', role: 'viewer' },
    })
    expect(invite.status(), await invite.text()).toBeLessThan(300)
    const { user } = (await invite.json()) as { user: { id: number } }
    await sql("update users set status = 'active', email_confirmed_at = now() where id = $1", [
      user.id,
    ])
    const sent = await request.post(`/api/v1/admin/users/${user.id}/send-magic-link/`, { headers })
    expect(sent.status(), await sent.text()).toBe(200)
    await logOut(page)
    const mail = await waitForMail(colleague, /sign-in link/i)
    const url = linkIn(mail, '/magic-link')
    await page.goto(url)
    await expect(page).toHaveURL(/\/$/, { timeout: 15_000 })
    await page.getByRole('button', { name: 'User menu' }).click()
    await expect(page.getByTestId('user-menu-email')).toHaveText(colleague)
    await page.keyboard.press('Escape')
    await logOut(page)
    // the link works once
    await page.goto(url)
    await expect(page.getByRole('heading', { name: 'Sign-in link not valid' })).toBeVisible()
    await expect(page.getByText(/invalid or has expired/)).toBeVisible()
    await expect(page).toHaveURL(/\/login/, { timeout: 10_000 })
  })

  test('a user flagged to change the password is sent to /force-password-change', async ({
    page,
  }) => {
    const account = await signedUp(page, 'forced')
    await logOut(page)
    await sql('update users set must_change_password = true where lower(email) = lower($1)', [
      account.email,
    ])
    await signInWithPassword(page, account.email, account.password)
    await expect(page).toHaveURL(/\/force-password-change$/)
    // the rest of the app waits until the password is changed
    await page.goto('/repository')
    await expect(page).toHaveURL(/\/force-password-change$/)
    await expect(page.getByRole('heading', { name: 'Change Your Password' })).toBeVisible()
    await expect(page.getByText('You must change your password before continuing')).toBeVisible()
    const password = `${account.password}-changed`
    await page.getByLabel(/^new password/i).fill(password)
    await page.getByLabel(/confirm/i).fill(password)
    await page.getByRole('button', { name: /change password/i }).click()
    await expect(page).toHaveURL(/\/$/)
    await logOut(page)
    await signInWithPassword(page, account.email, password)
    await expect(page).toHaveURL(/\/$/)
  })

  test("the expiry warning appears and 'Extend Session' extends", async ({ page }) => {
    await page.clock.install()
    const account = await signedUp(page, 'expiry')
    // 2 h tokens: jump to 4 minutes before expiry; the due 60 s check fires on the way
    await page.clock.fastForward('01:56:00')
    await expect(
      page.getByText(
        'Your session will expire in less than 5 minutes. Click to extend your session.',
      ),
    ).toBeVisible()
    await page.getByRole('button', { name: 'Extend Session' }).click()
    await expect(page.getByText('Session extended successfully!')).toBeVisible()
    expect(await mailsTo(account.email)).toHaveLength(1)
  })

  test('registration refuses a short domain with the spec text', async ({ page }) => {
    await page.goto('/register')
    await page.getByLabel('Work Email').fill('someone@ab')
    await page.getByLabel('Password', { exact: true }).click()
    await expect(page.getByText('Invalid domain', { exact: true })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Register' })).toBeDisabled()
    const account = newAccount('again')
    await register(page, account)
  })
})
