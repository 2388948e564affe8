import type { AccessClaims, ProfileResponse, TokenUser } from '../../contract/auth.ts'

// ---------------------------------------------------------------------------------------------
// Tags
// ---------------------------------------------------------------------------------------------

/** `loading`: authentication is being verified; the guard shows 'Verifying authentication...'. */
export type SessionTags = 'loading'

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

/** From the `clock` actor: the time now, ms since the epoch. Delays cannot read a clock. */
export type ClockNowEvent = { type: 'clock.now'; now: number }
/** To the `clock` actor: answer with `clock.now`. */
export type ClockReadEvent = { type: 'clock.read' }

/** From the `tabSync` actor: another tab stored an access token (a login or a refresh). */
export type TabLoginEvent = { type: 'tab.login'; claims: AccessClaims }
/** From the `tabSync` actor: another tab cleared the tokens (a logout or a lost session). */
export type TabLogoutEvent = { type: 'tab.logout' }

/** From the `authEvents` actor: the API client could not refresh (auth-error). */
export type SessionExpiredEvent = { type: 'session.expired' }

export type SessionEvents =
  /** Tokens were stored by a sign-in flow. */
  | { type: 'session.login'; claims: AccessClaims }
  /** The user logs out. */
  | { type: 'logout' }
  | SessionExpiredEvent
  /** 'Extend Session' on the warning toast: refresh the tokens now. */
  | { type: 'session.extend' }
  | ClockNowEvent
  | TabLoginEvent
  | TabLogoutEvent

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
  /** GET profile/: loaded on login and at start when a token exists; cleared on logout. */
  profile: ProfileResponse | null
  /** The last time the `clock` actor reported, ms since the epoch; the refresh delay uses it. */
  now: number | null
  /** The `expiresAt` the expiry warning was shown for: one warning per access token. */
  warnedFor: number | null
}

// ---------------------------------------------------------------------------------------------
// Emitted
// ---------------------------------------------------------------------------------------------

export type SessionEmitted =
  /** A session began (start with a valid token, a refresh at start, a sign-in). */
  | { type: 'login' }
  /** The session ended: the app goes to /login unless already there. */
  | { type: 'logout' }
  /** The session ended because it expired: the login screen says so. */
  | { type: 'expired' }
  /** GET profile/ failed: the app shows 'Failed to fetch profile data'. */
  | { type: 'profile.failed'; code?: string }
  /** Under 5 minutes left: the app shows the warning toast (30 s) with 'Extend Session'. */
  | { type: 'warning' }
  /** 'Extend Session' refreshed the tokens: 'Session extended successfully!'. */
  | { type: 'extended' }
  /** 'Extend Session' failed: 'Failed to extend session. Please log in again.', then logout. */
  | { type: 'extend.failed' }

// ---------------------------------------------------------------------------------------------
// Delays
// ---------------------------------------------------------------------------------------------

/**
 * - `sessionCheck`: the expiry check interval (60 s).
 * - `refreshDelay`: max(remaining - 600, 60) s, from `expiresAt` and the clock's last `now`.
 *
 * The warning toast's 30 s belong to the toast (`SESSION_WARNING_TOAST_MS`), not to the session.
 */
export type SessionDelays = 'sessionCheck' | 'refreshDelay'

// ---------------------------------------------------------------------------------------------
// Schema
// ---------------------------------------------------------------------------------------------

export interface SessionSchema {
  context: SessionContext
  events: SessionEvents
  emitted: SessionEmitted
  tags: SessionTags
  delays: SessionDelays
}
