import type { AccessClaims, TokenUser } from '../../contract/auth.ts'

// ---------------------------------------------------------------------------------------------
// Tags
// ---------------------------------------------------------------------------------------------

/** `loading`: authentication is being verified; the guard shows 'Verifying authentication...'. */
export type SessionTags = 'loading'

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

export type SessionEvents =
  /** Tokens were stored by a sign-in flow. */
  | { type: 'session.login'; claims: AccessClaims }
  /** The user logs out. */
  | { type: 'logout' }
  /** The API client could not refresh (auth-error), or another tab logged out. */
  | { type: 'session.expired' }

// ---------------------------------------------------------------------------------------------
// Actor results
// ---------------------------------------------------------------------------------------------

/** What the stored tokens say at start. */
export type StoredSession =
  | { kind: 'none' }
  | { kind: 'expired' }
  | { kind: 'valid'; claims: AccessClaims }

// ---------------------------------------------------------------------------------------------
// Context
// ---------------------------------------------------------------------------------------------

export interface SessionContext {
  user: TokenUser | null
  /** Access token expiry, seconds since the epoch. */
  expiresAt: number | null
  /** Why the last session ended, for the login screen's message. */
  endedBy: 'logout' | 'expired' | null
}

// ---------------------------------------------------------------------------------------------
// Emitted
// ---------------------------------------------------------------------------------------------

export type SessionEmitted = { type: 'login' } | { type: 'logout' } | { type: 'expired' }

// ---------------------------------------------------------------------------------------------
// Schema
// ---------------------------------------------------------------------------------------------

export interface SessionSchema {
  context: SessionContext
  events: SessionEvents
  emitted: SessionEmitted
  tags: SessionTags
}
