// ---------------------------------------------------------------------------------------------
// Tags
// ---------------------------------------------------------------------------------------------

/** `loading`: the address is checked or the tokens are asked for. */
export type ExtensionAuthTags = 'loading'

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

export type ExtensionAuthEvents =
  /** 'Continue to Login'. */
  | { type: 'login' }
  /** 'Close Window'. */
  | { type: 'close' }

// ---------------------------------------------------------------------------------------------
// Actor inputs and results
// ---------------------------------------------------------------------------------------------

/** `checkSession`: the allowed extension ids, and whether this browser is signed in. */
export interface ExtensionSessionCheck {
  extensionIds: string[]
  signedIn: boolean
}

/** `handOff`: the extension's own tokens (POST admin/extension/handoff/). */
export interface ExtensionTokens {
  access_token: string
  refresh_token: string
  expires_in: number
  state: string
}

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

export interface ExtensionAuthInput {
  redirect_uri?: string | null
  state?: string | null
  extension_id?: string | null
}

// ---------------------------------------------------------------------------------------------
// Context
// ---------------------------------------------------------------------------------------------

export interface ExtensionAuthContext {
  redirectUri: string | null
  state: string | null
  error: string | null
  /** 'Security validation failed' when the address itself was refused. */
  security: boolean
  url: string | null
}

// ---------------------------------------------------------------------------------------------
// Emitted
// ---------------------------------------------------------------------------------------------

export type ExtensionAuthEmitted =
  /** not_authenticated: the view stores redirect_uri and state in session storage. */
  | { type: 'storePending'; redirectUri: string; state: string }
  | { type: 'navigate'; to: '/login' }
  /** redirecting: the browser goes to the extension address with the tokens in the fragment. */
  | { type: 'redirect'; url: string }
  | { type: 'closeWindow' }

// ---------------------------------------------------------------------------------------------
// Delays
// ---------------------------------------------------------------------------------------------

/** `extensionRedirect`: the browser goes on to the extension 1.5 s after the tokens came. */
export type ExtensionAuthDelays = 'extensionRedirect'

// ---------------------------------------------------------------------------------------------
// Schema
// ---------------------------------------------------------------------------------------------

export interface ExtensionAuthSchema {
  context: ExtensionAuthContext
  input: ExtensionAuthInput
  events: ExtensionAuthEvents
  emitted: ExtensionAuthEmitted
  tags: ExtensionAuthTags
  delays: ExtensionAuthDelays
}
