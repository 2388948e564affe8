import type * as z from 'zod/mini'
import type { AccessClaims, setPasswordRequestSchema } from '../../contract/auth.ts'
import type { LinkInput, NewPasswordEvents } from '../account.ts'

// ---------------------------------------------------------------------------------------------
// Tags
// ---------------------------------------------------------------------------------------------

/** `loading`: the link is checked or the password is being set; the button spins. */
export type SetPasswordTags = 'loading'

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

export type SetPasswordEvents = NewPasswordEvents

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

/** The invite link's query parameters, as they came. */
export type SetPasswordInput = LinkInput

// ---------------------------------------------------------------------------------------------
// Actors
// ---------------------------------------------------------------------------------------------

/** How a call of this flow fails (see machines/account.ts). */
export type { RequestFailure } from '../account.ts'

/** `setPassword` sends `{uid, token, new_password}` and succeeds on status 'success'. */
export type SetPasswordRequest = z.infer<typeof setPasswordRequestSchema>

// ---------------------------------------------------------------------------------------------
// Context
// ---------------------------------------------------------------------------------------------

export interface SetPasswordContext {
  uid: string | null
  token: string | null
  password: string
  confirm: string
  /** Why the link cannot be used ('Invalid or missing token', 'Invalid or expired token'). */
  linkError: string | null
  /** The form's message: a password rule or why the call failed. */
  formError: string | null
}

// ---------------------------------------------------------------------------------------------
// Emitted
// ---------------------------------------------------------------------------------------------

/** The view performs navigation. */
export type SetPasswordEmitted =
  | { type: 'navigate'; to: '/login' }
  /** The invitation's password started a session: the view tells the session and goes to /. */
  | { type: 'signedIn'; claims: AccessClaims }

// ---------------------------------------------------------------------------------------------
// Delays
// ---------------------------------------------------------------------------------------------

// `passwordSavedRedirect` (PASSWORD_SAVED_REDIRECT_MS): from the success message to /login.

// ---------------------------------------------------------------------------------------------
// Schema
// ---------------------------------------------------------------------------------------------

export interface SetPasswordSchema {
  context: SetPasswordContext
  events: SetPasswordEvents
  input: SetPasswordInput
  emitted: SetPasswordEmitted
  tags: SetPasswordTags
}
