import type { AccessClaims } from '../../contract/auth.ts'

// ---------------------------------------------------------------------------------------------
// Tags
// ---------------------------------------------------------------------------------------------

/** `loading`: the confirmation runs ('Confirming your email...'). */
export type ConfirmEmailTags = 'loading'

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

// None: the page confirms on its own.

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

/** The link's query parameter, as it came. */
export interface ConfirmEmailInput {
  uuid?: string | null
}

// ---------------------------------------------------------------------------------------------
// Actors
// ---------------------------------------------------------------------------------------------

/**
 * `confirmEmail` sends `{uuid}`, stores the token pair the server answers with and resolves with
 * the access token's claims.
 */
export interface ConfirmEmailRequest {
  uuid: string
}

// ---------------------------------------------------------------------------------------------
// Context
// ---------------------------------------------------------------------------------------------

export interface ConfirmEmailContext {
  uuid: string | null
  /** 'Invalid confirmation link' or 'Failed to confirm email. ...'. */
  error: string | null
}

// ---------------------------------------------------------------------------------------------
// Emitted
// ---------------------------------------------------------------------------------------------

export type ConfirmEmailEmitted =
  /** The view tells the session (`session.login` with these claims) and goes to /. */
  | { type: 'signedIn'; claims: AccessClaims }
  /** The view performs navigation. */
  | { type: 'navigate'; to: '/login' }

// ---------------------------------------------------------------------------------------------
// Delays
// ---------------------------------------------------------------------------------------------

// `failedRedirect` (CONFIRM_EMAIL_FAILED_REDIRECT_MS): from the failure message to /login.

// ---------------------------------------------------------------------------------------------
// Schema
// ---------------------------------------------------------------------------------------------

export interface ConfirmEmailSchema {
  context: ConfirmEmailContext
  input: ConfirmEmailInput
  emitted: ConfirmEmailEmitted
  tags: ConfirmEmailTags
}
