import type { APIRequestContext, Page } from '@playwright/test'
import { loginResponseSchema } from '../../contract/auth.ts'
import { newAccount, type TestAccount } from './accounts.ts'
import { linkIn, waitForMail } from './mailbox.ts'

/**
 * Real sessions for journeys that start signed in: one account per worker, registered and
 * confirmed through the API and the emailed link, then a fresh sign-in (new token pair) per test.
 */

let shared: TestAccount | undefined

/** A new organisation's admin, registered and confirmed through the API and the emailed link. */
export async function freshAccount(
  request: APIRequestContext,
  label = 'shell',
): Promise<TestAccount> {
  const account = newAccount(label)
  const registered = await request.post('/api/v1/admin/register/', {
    data: {
      email: account.email,
      password: account.password,
      firstName: account.firstName,
      lastName: account.lastName,
      organization: account.organization,
      marketing_consent: false,
    },
  })
  if (!registered.ok()) throw new Error(`register failed: ${await registered.text()}`)
  const mail = await waitForMail(account.email, /confirm|activat|verify/i)
  const uuid = new URL(linkIn(mail, '/confirm_email')).searchParams.get('uuid')
  const confirmed = await request.post('/api/v1/admin/confirm_email/', { data: { uuid } })
  if (!confirmed.ok()) throw new Error(`confirm failed: ${await confirmed.text()}`)
  return account
}

async function ensureAccount(request: APIRequestContext): Promise<TestAccount> {
  shared ??= await freshAccount(request)
  return shared
}

/** Signs in through the API and stores the tokens before any page script runs. */
export async function signIn(
  page: Page,
  request: APIRequestContext,
  /** An account of its own (a journey that must not meet others' data), else the shared one. */
  own?: TestAccount,
): Promise<TestAccount> {
  const account = own ?? (await ensureAccount(request))
  const res = await request.post('/api/v1/admin/login/', {
    data: { email: account.email, password: account.password },
  })
  if (!res.ok()) throw new Error(`login failed: ${await res.text()}`)
  await seedSession(page, loginResponseSchema.parse(await res.json()))
  return account
}

/** Stores a session's tokens before the page's scripts run (once per tab). */
export async function seedSession(page: Page, tokens: { access: string; refresh: string }) {
  await page.addInitScript(
    ([access, refresh]) => {
      if (!sessionStorage.getItem('e2e-seeded')) {
        localStorage.setItem('access_token', access as string)
        localStorage.setItem('refresh_token', refresh as string)
        sessionStorage.setItem('e2e-seeded', '1')
      }
    },
    [tokens.access, tokens.refresh],
  )
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

/** A token the server never issued, already expired: for the refused-refresh journey. */
export async function seedExpiredForgedSession(page: Page) {
  const exp = Math.floor(Date.now() / 1000) - 60
  const access = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ exp })}.forged`
  await page.addInitScript(
    ([token]) => {
      localStorage.setItem('access_token', token as string)
      localStorage.setItem('refresh_token', 'not-a-real-refresh-token')
    },
    [access],
  )
}
