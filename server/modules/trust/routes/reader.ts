import type { Context } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'

/** The reader session's cookie: the page, its downloads and the reader call read it. */
export const READER_COOKIE = 'quire_trust_reader'

/** The reader session in an HttpOnly cookie of its own, for as long as the grant lasts. */
export function setReaderCookie(
  c: Context,
  session: { access: string; expires_at: string },
  secure: boolean,
) {
  setCookie(c, READER_COOKIE, session.access, {
    httpOnly: true,
    secure,
    sameSite: 'Strict',
    path: '/',
    expires: new Date(session.expires_at),
  })
}

/** The reader token a request carries: its Authorization header, else the reader cookie. */
export function readerToken(c: Context) {
  const cookie = getCookie(c, READER_COOKIE)
  return c.req.header('authorization') ?? (cookie ? `Bearer ${cookie}` : undefined)
}

/** Anyone's reads of public pages, per address: generous for people, a wall for scrapers. */
export const PUBLIC_RULE = { limit: 120, windowMs: 60_000 }
