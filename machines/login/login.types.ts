import type {
  AccessClaims,
  LoginResponse,
  SsoDiscoverResponse,
  TokenPair,
} from '../../contract/auth.ts'

// ---------------------------------------------------------------------------------------------
// Tags
// ---------------------------------------------------------------------------------------------

/**
 * - `loading`: a check, a sign-in or a redirect is under way; the step's button is disabled.
 * - `submittable`: the step's main button may be pressed (an email or a password is entered).
 */
export type LoginTags = 'loading' | 'submittable'

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

export type LoginEvents =
  | { type: 'email.change'; value: string }
  /** 'Continue' on the email step. */
  | { type: 'email.submit' }
  | { type: 'password.change'; value: string }
  /** 'Sign in' on the password step. */
  | { type: 'password.submit' }
  /** 'Continue to {organization}' on the sso step. */
  | { type: 'sso.continue' }
  /** The Google button under 'Or continue with'. */
  | { type: 'google.start' }
  /** 'Back to email'. */
  | { type: 'back' }

// ---------------------------------------------------------------------------------------------
// Actor inputs and results
// ---------------------------------------------------------------------------------------------

/** A browser extension waiting for tokens (stored in session storage by /extension/auth). */
export interface ExtensionHandOff {
  redirectUri: string
  state: string
}

/** What storing the tokens gives back: the claims, and any pending extension hand-off. */
export interface StoredLogin {
  claims: AccessClaims
  extension: ExtensionHandOff | null
}

export interface DiscoverInput {
  email: string
}
export interface LoginInput {
  email: string
  password: string
}
export interface SsoStartInput {
  provider: string
  email: string
}
export interface HandOffInput {
  extension: ExtensionHandOff
  /** The web app's own pair: it asks for the extension's child session, never goes to it. */
  tokens: TokenPair
}

/**
 * How a failed call looks to the machine: the API client's error carries the HTTP status (0 for
 * a network failure), the response body and a message.
 */
export interface RequestFailure {
  status?: number
  body?: unknown
  message?: string
}

export type { LoginResponse, SsoDiscoverResponse }

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

export interface LoginInputs {
  /** The `message` query parameter: an SSO error code (spec section 8). */
  message?: string | null
}

// ---------------------------------------------------------------------------------------------
// Context
// ---------------------------------------------------------------------------------------------

export interface LoginContext {
  email: string
  password: string
  /** The error under the current step, in the spec's words. */
  error: string | null
  /** A note that is not an error ('Unable to check SSO status. Continuing with password login.'). */
  notice: string | null
  /** From discovery, for the sso step. */
  sso: { provider: string; organization: string } | null
  /** From a successful sign-in, until they are stored and handed on. */
  tokens: LoginResponse | null
  claims: AccessClaims | null
  extension: ExtensionHandOff | null
  /** Whether Google sign-in is configured on this server; null until the server says. */
  google: boolean | null
}

/** The server's configured sign-in providers, as the login screen needs them. */
export interface SignInProviders {
  google: boolean
}

// ---------------------------------------------------------------------------------------------
// Emitted
// ---------------------------------------------------------------------------------------------

export type LoginEmitted =
  /** The tokens are stored: the view tells the session (`session.login`). */
  | { type: 'signedIn'; claims: AccessClaims }
  /** An in-app navigation the view performs with the router. */
  | { type: 'navigate'; to: '/' | '/force-password-change' }

// ---------------------------------------------------------------------------------------------
// Delays
// ---------------------------------------------------------------------------------------------

/**
 * - `ssoDiscoveryFallback`: after a 500 from discovery, the password step follows in 1.5 s.
 * - `googleAutoRedirect`: a login failure with `redirect_to_google` redirects in 1.5 s.
 * - `loginEventPause`: 100 ms between storing the tokens and the login event.
 */
export type LoginDelays = 'ssoDiscoveryFallback' | 'googleAutoRedirect' | 'loginEventPause'

// ---------------------------------------------------------------------------------------------
// Schema
// ---------------------------------------------------------------------------------------------

export interface LoginSchema {
  context: LoginContext
  events: LoginEvents
  input: LoginInputs | undefined
  emitted: LoginEmitted
  tags: LoginTags
  delays: LoginDelays
}
