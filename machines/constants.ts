/**
 * Business constants and limits from spec section 9, in one place. Every timer a machine uses is a
 * named delay whose value comes from here; views and tests import the same values.
 */

export const SECOND = 1_000
export const MINUTE = 60 * SECOND

/** Minimum password length. */
export const MIN_PASSWORD_LENGTH = 8
/** Reset link validity, as stated in the forgot-password confirmation text. */
export const RESET_LINK_VALIDITY_MS = 60 * MINUTE
/** Minimum email domain length (registration). */
export const MIN_EMAIL_DOMAIN_LENGTH = 3
/** Extension hand-off `expires_in`, seconds. */
export { EXTENSION_EXPIRES_IN_S } from '../contract/extension-texts.ts'

/** A refresh is scheduled only when fewer than this many seconds remain on the access token. */
export const REFRESH_SCHEDULE_THRESHOLD_S = 3_600
/** The refresh fires this many seconds before expiry... */
export const REFRESH_LEAD_S = 600
/** ...but never sooner than this many seconds from now. */
export const REFRESH_MIN_DELAY_S = 60
/** Refresh delay in ms for a token with `remainingS` seconds left: max(remaining - 600, 60). */
export const refreshDelayMs = (remainingS: number): number =>
  Math.max(remainingS - REFRESH_LEAD_S, REFRESH_MIN_DELAY_S) * SECOND

/** Session-expiry check interval. */
export const SESSION_CHECK_INTERVAL_MS = 60 * SECOND
/** Warn when fewer than this many seconds remain. */
export const SESSION_WARNING_THRESHOLD_S = 300
/** The session warning toast stays this long. */
export const SESSION_WARNING_TOAST_MS = 30 * SECOND

export const GOOGLE_AUTO_REDIRECT_MS = 1_500
export const SSO_SUCCESS_REDIRECT_MS = 1_500
export const EXTENSION_REDIRECT_MS = 1_500
export const SSO_DISCOVERY_FALLBACK_MS = 1_500
export const GOOGLE_CALLBACK_ERROR_REDIRECT_MS = 3_000
export const GOOGLE_CALLBACK_FORBIDDEN_REDIRECT_MS = 5_000
/** Pause before the login event after a password sign-in. */
export const LOGIN_EVENT_PAUSE_MS = 100

/**
 * Account screens. The spec says only 'then to /login'; these pauses (ours) let the message be
 * read first. Each screen also offers a link to go at once.
 */
/** After a password was reset or set from an invite link. */
export const PASSWORD_SAVED_REDIRECT_MS = 3 * SECOND
/** After the server refused a reset link ('Invalid or expired reset link'). */
export const RESET_LINK_REJECTED_REDIRECT_MS = 3 * SECOND
/** After an email confirmation failed. */
export const CONFIRM_EMAIL_FAILED_REDIRECT_MS = 3 * SECOND
/** After an administrator's sign-in link was refused (used, expired or wrong). */
export const MAGIC_LINK_FAILED_REDIRECT_MS = 3 * SECOND

/** Yearly plan saving advertised. */
export const YEARLY_SAVING_PERCENT = 20

/** How long the Copy button of a value says 'Copied'. */
export const COPY_NOTICE_MS = 2 * SECOND

/** Toasts: default duration and how many are visible at once. */
export const TOAST_DURATION_MS = 4 * SECOND
export const TOAST_MAX_VISIBLE = 3

/** Support ticket attachment size hint. */
export const ATTACHMENT_SIZE_HINT = '10MB'
export const TICKET_PRIORITY_DEFAULT = 'Medium'

/** The checkout provider integration is switched off by this flag. */
export const CHECKOUT_PROVIDER_ENABLED = false

/** Sidebar geometry and behaviour. */
export const SIDEBAR_WIDTH = '13rem'
export const SIDEBAR_WIDTH_COLLAPSED = '3rem'
export const SIDEBAR_WIDTH_MOBILE = '15rem'
/** Screens narrower than this many px get the slide-over panel. */
export const MOBILE_BREAKPOINT_PX = 768
export const SIDEBAR_COOKIE_NAME = 'sidebar_state'
export const SIDEBAR_COOKIE_MAX_AGE_S = 7 * 24 * 60 * 60
/** Ctrl or Cmd plus this key toggles the sidebar. */
export const SIDEBAR_KEYBOARD_SHORTCUT = 'b'

/** Tooltips. */
export const TOOLTIP_OPEN_DELAY_MS = 700
export const TOOLTIP_SKIP_DELAY_MS = 300
export const SIDEBAR_TOOLTIP_OPEN_DELAY_MS = 0

/** Menus. */
export const MENU_TYPEAHEAD_RESET_MS = 1_000
export const SUBMENU_OPEN_DELAY_MS = 100
export const MENU_POINTER_GRACE_MS = 300

/** Repository and knowledge base (ours; the spec names no timers here). */
/** While any file is queued or processing, its status is fetched this often. */
export const FILE_STATUS_POLL_MS = 1_500
/** Typing in the repository's search box waits this long before listing. */
export const LIST_SEARCH_DEBOUNCE_MS = 300
/** Typing in the knowledge-base search waits this long before searching. */
export const KB_SEARCH_DEBOUNCE_MS = 250
/** Uploads sent at once; the rest wait their turn. */
export const MAX_PARALLEL_UPLOADS = 3
/** Relative times ("2 min ago") are worked out again this often (issue 30: they tick). */
export const CLOCK_TICK_MS = 30 * SECOND
/** A file's page asks again this often while the file is queued or processing. */
export const FILE_PAGE_POLL_MS = 2 * SECOND

/** Questionnaires (ours). While a questionnaire is analysed or answered, it is fetched this often. */
export const QUESTIONNAIRE_PROGRESS_POLL_MS = 1_000
/** While an export runs as a job (issue 37), its run is fetched this often until its file is written. */
export const EXPORT_PROGRESS_POLL_MS = 1_000

/** /payouts: how often the landing page asks again while the provider's delivery is on its way. */
export const PAYOUT_POLL_MS = 2 * SECOND
/** ...and how many times before it gives up ('Failed to process webhook'). */
export const PAYOUT_POLL_ATTEMPTS = 15

/** Live streams (issue 29): a lost stream is opened again after 1 s, then 2, 4, 8 … at most 30 s. */
export const STREAM_RETRY_FIRST_MS = SECOND
export const STREAM_RETRY_MAX_MS = 30 * SECOND
/** The wait before the `attempt`-th reconnection (1-based): doubling, capped. */
export const streamRetryDelay = (attempt: number) =>
  Math.min(STREAM_RETRY_MAX_MS, STREAM_RETRY_FIRST_MS * 2 ** Math.max(0, attempt - 1))
/**
 * A stream the server refused (429: too many open for this person, issue 37): live updates are
 * paused for the Retry-After it gave, never less than this, then the stream is tried again.
 */
export const STREAM_PAUSED_MIN_MS = 10 * SECOND
export const streamPausedDelay = (retryAfterS: number) =>
  Math.max(STREAM_PAUSED_MIN_MS, retryAfterS * SECOND)

/** Issue 42: how long the portal panel shows what it just did ("Filled 5 answers"). */
export const PORTAL_NOTICE_MS = 4_000
