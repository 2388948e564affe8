import type * as z from 'zod/mini'
import type { setPasswordRequestSchema, ValidateResetTokenResponse } from '../../contract/auth.ts'
import type { LinkInput, NewPasswordEvents } from '../account.ts'

// ---------------------------------------------------------------------------------------------
// Tags
// ---------------------------------------------------------------------------------------------

/** `loading`: a call runs (the link check, the reset, or a new link); its button spins. */
export type ResetPasswordTags = 'loading'

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

export type ResetPasswordEvents =
  | NewPasswordEvents
  /** 'Send New Reset Link' on the expired screen. */
  | { type: 'resend' }

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

/** The link's query parameters, as they came. */
export type ResetPasswordInput = LinkInput

// ---------------------------------------------------------------------------------------------
// Actors
// ---------------------------------------------------------------------------------------------

/** How a call of this flow fails (see machines/account.ts). */
export type { RequestFailure } from '../account.ts'

export interface ValidateResetTokenInput {
  uid: string
  token: string
}
export type { ValidateResetTokenResponse }
/** `confirmPasswordReset` sends `{uid, token, new_password}` (spec section 7). */
export type ConfirmPasswordResetInput = z.infer<typeof setPasswordRequestSchema>
export interface RequestPasswordResetInput {
  email: string
}

// ---------------------------------------------------------------------------------------------
// Context
// ---------------------------------------------------------------------------------------------

export interface ResetPasswordContext {
  uid: string | null
  token: string | null
  /** The link owner's address from the check: a new link goes there when this one expired. */
  email: string | null
  password: string
  confirm: string
  /** The invalid screen's reason, when known ('Invalid or missing token'). */
  linkError: string | null
  /** The form's message: a password rule or the server's answer. */
  formError: string | null
  /** Why 'Send New Reset Link' did not send. */
  resendError: string | null
}

// ---------------------------------------------------------------------------------------------
// Emitted
// ---------------------------------------------------------------------------------------------

/** The view performs navigation. */
export type ResetPasswordEmitted = { type: 'navigate'; to: '/login' }

// ---------------------------------------------------------------------------------------------
// Delays
// ---------------------------------------------------------------------------------------------

// `passwordSavedRedirect` (PASSWORD_SAVED_REDIRECT_MS): from the success message to /login.
// `linkRejectedRedirect` (RESET_LINK_REJECTED_REDIRECT_MS): from 'Invalid or expired reset link'
// to /login.

// ---------------------------------------------------------------------------------------------
// Schema
// ---------------------------------------------------------------------------------------------

export interface ResetPasswordSchema {
  context: ResetPasswordContext
  events: ResetPasswordEvents
  input: ResetPasswordInput
  emitted: ResetPasswordEmitted
  tags: ResetPasswordTags
}
