import { AUTH_TEXTS, SSO_MESSAGE_FALLBACK, SSO_MESSAGES } from '../../contract/auth-texts.ts'
import type { RequestFailure } from './login.types.ts'

/**
 * How the sign-in words what went wrong (spec section 8): a failed sign-in in the server's words,
 * and the SSO error codes the login page is sent back with.
 */

/** A failed call as the machine reads it (see RequestFailure). */
export const asFailure = (error: unknown): RequestFailure =>
  typeof error === 'object' && error !== null ? (error as RequestFailure) : {}

/** A field of a failed call's response body. */
export const bodyField = (body: unknown, key: string): unknown =>
  typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[key] : undefined

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() ? value : undefined

/** Spec section 8, 'Login': the body's error or msg, else the message, else 'An error occurred'. */
export function loginFailureText(error: unknown): string {
  const failure = asFailure(error)
  return (
    text(bodyField(failure.body, 'error')) ??
    text(bodyField(failure.body, 'msg')) ??
    text(failure.message) ??
    AUTH_TEXTS.genericError
  )
}

/** Spec section 8, 'SSO login messages by code'; null without a code. */
export function ssoMessageText(code: string | null | undefined): string | null {
  if (!code) return null
  return Object.hasOwn(SSO_MESSAGES, code) ? (SSO_MESSAGES[code] ?? null) : SSO_MESSAGE_FALLBACK
}
