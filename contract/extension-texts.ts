/** The browser-extension hand-off (spec sections 2, 3, 5 and 8; security AS13). */

/** The hand-off's expires_in (spec section 9). */
export const EXTENSION_EXPIRES_IN_S = 7_200

/** The only scheme a hand-off may go to. */
export const EXTENSION_SCHEME = 'chrome-extension://'
/** The id of the extension this repository builds (its manifest carries the key). */
export const QUIRE_EXTENSION_ID = 'hacckalpnagcinfnoagldlfbihhgkldc'

/**
 * The redirect addresses an allowed extension may give, each byte-equal (AS13): its root, and its
 * page `connected.html`, which a web page may open (Chrome blocks navigation to an extension's
 * root from a web page, so Quire's own extension receives the hand-off there).
 */
export const extensionRedirectUris = (id: string) => [
  `${EXTENSION_SCHEME}${id}/`,
  `${EXTENSION_SCHEME}${id}/connected.html`,
]

export const EXTENSION_TEXTS = {
  title: 'Extension Authentication',
  checking: 'Checking your session...',
  missingRedirect: 'Missing redirect_uri parameter',
  /** {address} is the scheme. */
  invalidRedirect: 'Invalid redirect_uri: must be {address} URL',
  securityTitle: 'Security validation failed',
  notAllowed: 'This extension is not allowed to connect to Quire',
  missingState: 'Missing state parameter',
  notAuthenticated: 'Sign in to Quire to connect the browser extension.',
  continueToLogin: 'Continue to Login',
  redirecting: 'Connecting the extension...',
  closeWindow: 'Close Window',
  failed: 'The extension could not be connected. Please try again.',
} as const
