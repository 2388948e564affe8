import { EXTENSION_EXPIRES_IN_S } from '../../machines/constants.ts'
import type { ExtensionHandOff } from '../../machines/login/index.ts'

/**
 * A browser extension that asked for a sign-in (/extension/auth) waits in session storage under
 * these keys; a password sign-in then hands the tokens back to it instead of entering the app
 * (spec section 4, 'Login').
 */
export const EXTENSION_REDIRECT_URI_KEY = 'extension_redirect_uri'
export const EXTENSION_STATE_KEY = 'extension_state'
/** The only scheme a hand-off may go to (security AS13: the page checks the allowlisted id). */
export const EXTENSION_SCHEME = 'chrome-extension://'

const storage = (): Storage | undefined => {
  try {
    return globalThis.sessionStorage
  } catch {
    return undefined
  }
}

export const isExtensionRedirectUri = (uri: string): boolean =>
  uri.startsWith(EXTENSION_SCHEME) && uri.length > EXTENSION_SCHEME.length

/** For /extension/auth: remember the extension until the user has signed in. */
export function storePendingExtension(handOff: ExtensionHandOff) {
  storage()?.setItem(EXTENSION_REDIRECT_URI_KEY, handOff.redirectUri)
  storage()?.setItem(EXTENSION_STATE_KEY, handOff.state)
}

/** The pending hand-off, or null when there is none or it is not an extension address. */
export function readPendingExtension(): ExtensionHandOff | null {
  const redirectUri = storage()?.getItem(EXTENSION_REDIRECT_URI_KEY)
  const state = storage()?.getItem(EXTENSION_STATE_KEY)
  if (!redirectUri || !isExtensionRedirectUri(redirectUri)) return null
  return { redirectUri, state: state ?? '' }
}

export function clearPendingExtension() {
  storage()?.removeItem(EXTENSION_REDIRECT_URI_KEY)
  storage()?.removeItem(EXTENSION_STATE_KEY)
}

/** `<redirect_uri>#access_token=...&refresh_token=...&expires_in=7200&state=...` */
export function extensionHandOffUrl(
  handOff: ExtensionHandOff,
  tokens: { access: string; refresh: string },
): string {
  const fragment = new URLSearchParams({
    access_token: tokens.access,
    refresh_token: tokens.refresh,
    expires_in: String(EXTENSION_EXPIRES_IN_S),
    state: handOff.state,
  })
  const [base = ''] = handOff.redirectUri.split('#')
  return `${base}#${fragment.toString()}`
}
