// ---------------------------------------------------------------------------------------------
// Tags
// ---------------------------------------------------------------------------------------------

/** `loading`: the request is on its way; 'Send Reset Link' shows its spinner. */
export type ForgotPasswordTags = 'loading'

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

export type ForgotPasswordEvents = { type: 'email.change'; value: string } | { type: 'submit' }

// ---------------------------------------------------------------------------------------------
// Actors
// ---------------------------------------------------------------------------------------------

/** How a call of this flow fails (see machines/account.ts). */
export type { RequestFailure } from '../account.ts'

/** `requestPasswordReset` asks the server to mail a reset link to this address. */
export interface RequestPasswordResetInput {
  email: string
}

// ---------------------------------------------------------------------------------------------
// Context
// ---------------------------------------------------------------------------------------------

export interface ForgotPasswordContext {
  email: string
  /** The address check, set at submit. */
  emailError: string | null
  /** Why the last request failed. */
  error: string | null
}

// ---------------------------------------------------------------------------------------------
// Schema
// ---------------------------------------------------------------------------------------------

export interface ForgotPasswordSchema {
  context: ForgotPasswordContext
  events: ForgotPasswordEvents
  tags: ForgotPasswordTags
}
