import type { RegisterRequest } from '../../contract/auth.ts'

// ---------------------------------------------------------------------------------------------
// Tags
// ---------------------------------------------------------------------------------------------

/** `loading`: the registration is being sent; the Register button shows its spinner. */
export type RegisterTags = 'loading'

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

/** The text fields of the form; all of them are required. */
export type RegisterField = 'email' | 'password' | 'firstName' | 'lastName' | 'organization'

export type RegisterEvents =
  | { type: 'field.change'; field: RegisterField; value: string }
  /** The email field lost focus: its address is checked then, not on every key. */
  | { type: 'email.blur' }
  /** The password field lost focus: a password that breaks the rule shows it as an error. */
  | { type: 'password.blur' }
  /** The optional marketing-updates checkbox. */
  | { type: 'consent.change'; value: boolean }
  | { type: 'submit' }

// ---------------------------------------------------------------------------------------------
// Actors
// ---------------------------------------------------------------------------------------------

/** How a call of this flow fails (see machines/account.ts). */
export type { RequestFailure } from '../account.ts'

/** `register` sends exactly the registration payload of spec section 3. */
export type RegisterInput = Required<RegisterRequest>

// ---------------------------------------------------------------------------------------------
// Context
// ---------------------------------------------------------------------------------------------

export interface RegisterContext {
  values: Record<RegisterField, string>
  marketingConsent: boolean
  /** The email check of spec section 5; while set, Register is disabled. */
  emailError: string | null
  /** Set at submit when the password is shorter than the minimum. */
  passwordError: string | null
  /** Required fields (other than the email) left blank at the last submit. */
  missing: RegisterField[]
  /** The server's answer to the last attempt. */
  error: string | null
}

// ---------------------------------------------------------------------------------------------
// Schema
// ---------------------------------------------------------------------------------------------

export interface RegisterSchema {
  context: RegisterContext
  events: RegisterEvents
  tags: RegisterTags
}
