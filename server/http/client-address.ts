import { getConnInfo } from '@hono/node-server/conninfo'
import type { Context } from 'hono'

/**
 * The address a request came from, for per-address rate limits. X-Forwarded-For is anyone's to
 * write, so it counts only when TRUST_PROXY says a reverse proxy sits in front; then the right-most
 * entry is the one that proxy appended. Requests made without a socket (tests) share 'local'.
 */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')
    const last = forwarded?.split(',').at(-1)?.trim()
    if (last) return last
  }
  try {
    return getConnInfo(c).remote.address ?? 'local'
  } catch {
    return 'local'
  }
}
