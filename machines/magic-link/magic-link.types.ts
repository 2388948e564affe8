import type { AccessClaims } from '../../contract/auth.ts'

// ---------------------------------------------------------------------------------------------
// Tags
// ---------------------------------------------------------------------------------------------

/** `loading`: the link is being redeemed ('Signing you in...'). */
export type MagicLinkTags = 'loading'

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

// None: the page redeems the link on its own.

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

/** The link's query parameters, as they came. */
export interface MagicLinkInput {
  uid?: string | null
  token?: string | null
}

// ---------------------------------------------------------------------------------------------
// Actors
// ---------------------------------------------------------------------------------------------

/** `redeemMagicLink` sends `{uid, token}` by POST, stores the tokens and reads their claims. */
export interface MagicLinkRequest {
  uid: string
  token: string
}
export interface MagicLinkResult {
  claims: AccessClaims
  /** The account was given a temporary password: it must set its own first. */
  requiresPasswordChange: boolean
}

// ---------------------------------------------------------------------------------------------
// Context
// ---------------------------------------------------------------------------------------------

export interface MagicLinkContext {
  uid: string | null
  token: string | null
  error: string | null
}

// ---------------------------------------------------------------------------------------------
// Emitted
// ---------------------------------------------------------------------------------------------

export type MagicLinkEmitted =
  /** The view tells the session (`session.login` with these claims) and goes to /. */
  | { type: 'signedIn'; claims: AccessClaims }
  /** The view performs navigation. */
  | { type: 'navigate'; to: '/login' | '/force-password-change' }

// ---------------------------------------------------------------------------------------------
// Delays
// ---------------------------------------------------------------------------------------------

// `failedRedirect` (MAGIC_LINK_FAILED_REDIRECT_MS): from the failure message to /login.

// ---------------------------------------------------------------------------------------------
// Schema
// ---------------------------------------------------------------------------------------------

export interface MagicLinkSchema {
  context: MagicLinkContext
  input: MagicLinkInput
  emitted: MagicLinkEmitted
  tags: MagicLinkTags
}
