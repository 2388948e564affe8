import type { MiddlewareHandler } from 'hono'

/**
 * AS10: a strict CSP (no unsafe-inline, no unsafe-eval), no framing, nosniff and a strict
 * Referrer-Policy on every response. `no-referrer` everywhere also covers LT8 for the link pages,
 * whose URLs carry tokens.
 */
const BASE_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "manifest-src 'self'",
  "worker-src 'self' blob:",
]

/** Paddle.js and its checkout overlay, allowed only when the payment flag is on. */
const PADDLE = {
  script: 'https://cdn.paddle.com',
  frame: 'https://buy.paddle.com https://sandbox-buy.paddle.com',
  connect: 'https://*.paddle.com',
}

/** The policy, with the checkout provider's origins when payments are on. */
export function contentSecurityPolicy(payments = false): string {
  if (!payments) return BASE_POLICY.join('; ')
  return [
    ...BASE_POLICY.map((directive) =>
      directive.startsWith('script-src')
        ? `${directive} ${PADDLE.script}`
        : directive.startsWith('connect-src')
          ? `${directive} ${PADDLE.connect}`
          : directive,
    ),
    `frame-src ${PADDLE.frame}`,
  ].join('; ')
}

export const CONTENT_SECURITY_POLICY = contentSecurityPolicy(false)

export function securityHeaders(options: { hsts: boolean; payments?: boolean }): MiddlewareHandler {
  const policy = contentSecurityPolicy(options.payments ?? false)
  return async (c, next) => {
    await next()
    const h = c.res.headers
    // a response that set a stricter policy of its own (a download, the trust centre's page)
    // keeps it; every other response gets the app's
    if (!h.has('Content-Security-Policy')) h.set('Content-Security-Policy', policy)
    h.set('X-Content-Type-Options', 'nosniff')
    h.set('Referrer-Policy', 'no-referrer')
    h.set('X-Frame-Options', 'DENY')
    h.set('Cross-Origin-Opener-Policy', 'same-origin')
    h.set('Cross-Origin-Resource-Policy', 'same-origin')
    h.set(
      'Permissions-Policy',
      `camera=(), microphone=(), geolocation=(), payment=(${options.payments ? 'self "https://buy.paddle.com"' : ''})`,
    )
    h.set('X-DNS-Prefetch-Control', 'off')
    if (options.hsts) h.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains')
    if (c.req.path.startsWith('/api/')) {
      // API answers carry tokens and tenant data: never cache them anywhere.
      if (!h.has('Cache-Control')) h.set('Cache-Control', 'no-store')
    }
  }
}
