import type { Page } from '@playwright/test'

export const TEST_USER = {
  id: 1,
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: 'Lovelace',
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

/** An access token shaped like the server's: the browser reads only `exp` and `user`. */
export function accessToken(options: { expiresInS?: number; user?: object | null } = {}) {
  const exp = Math.floor(Date.now() / 1000) + (options.expiresInS ?? 7200)
  const payload = options.user === null ? { exp } : { exp, user: options.user ?? TEST_USER }
  return `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url(payload)}.signature`
}

/** Stores a session in localStorage before any page script runs. */
export async function signIn(page: Page, options: Parameters<typeof accessToken>[0] = {}) {
  const access = accessToken(options)
  await page.addInitScript(
    ([token]) => {
      if (!sessionStorage.getItem('e2e-seeded')) {
        localStorage.setItem('access_token', token as string)
        localStorage.setItem('refresh_token', 'e2e-refresh-token')
        sessionStorage.setItem('e2e-seeded', '1')
      }
    },
    [access],
  )
}
