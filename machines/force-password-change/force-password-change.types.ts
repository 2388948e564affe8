import type { AccessClaims } from '../../contract/auth.ts'
import type { NewPasswordEvents } from '../account.ts'

// ---------------------------------------------------------------------------------------------
// Tags
// ---------------------------------------------------------------------------------------------

/** `loading`: the new password is being sent; 'Change Password' spins. */
export type ForcePasswordChangeTags = 'loading'

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

export type ForcePasswordChangeEvents = NewPasswordEvents

// ---------------------------------------------------------------------------------------------
// Actors
// ---------------------------------------------------------------------------------------------

/** How a call of this flow fails (see machines/account.ts). */
export type { RequestFailure } from '../account.ts'

/**
 * `changePasswordForced` sends `{new_password}` with the user's bearer token, stores the fresh
 * token pair the server answers with, and resolves with the new access token's claims.
 */
export interface ChangePasswordForcedInput {
  new_password: string
}

// ---------------------------------------------------------------------------------------------
// Context
// ---------------------------------------------------------------------------------------------

export interface ForcePasswordChangeContext {
  password: string
  confirm: string
  /** A password rule, or why the change failed. */
  formError: string | null
}

// ---------------------------------------------------------------------------------------------
// Emitted
// ---------------------------------------------------------------------------------------------

/** The view tells the session (`session.login` with these claims) and goes to /. */
export type ForcePasswordChangeEmitted = { type: 'signedIn'; claims: AccessClaims }

// ---------------------------------------------------------------------------------------------
// Schema
// ---------------------------------------------------------------------------------------------

export interface ForcePasswordChangeSchema {
  context: ForcePasswordChangeContext
  events: ForcePasswordChangeEvents
  emitted: ForcePasswordChangeEmitted
  tags: ForcePasswordChangeTags
}
