import { fromPromise } from 'xstate'
import * as z from 'zod/mini'
import {
  API_PREFIX,
  accountPaths as paths,
  SSO_PROVIDERS,
  type SsoProvider,
} from '../../contract/account-paths.ts'
import {
  type LoginResponse,
  loginResponseSchema,
  type SsoDiscoverResponse,
  ssoDiscoverResponseSchema,
  type TokenPair,
} from '../../contract/auth.ts'
import { extensionHandoffResponseSchema } from '../../contract/extension.ts'
import { ssoProvidersStatusSchema } from '../../contract/sso.ts'
import type {
  DiscoverInput,
  HandOffInput,
  LoginInput,
  SignInProviders,
  SsoStartInput,
  StoredLogin,
} from '../../machines/login/index.ts'
import { type ApiClient, api } from './client.ts'
import {
  clearPendingExtension,
  extensionHandOffUrl,
  isExtensionRedirectUri,
  readPendingExtension,
} from './extension-handoff.ts'
import { decodeAccessToken, storeTokens } from './tokens.ts'

/** GET auth/social/google/ answers the address to send the browser to (spec section 7). */
const googleStartResponseSchema = z.looseObject({ authorization_url: z.string() })

const isSsoProvider = (provider: string): provider is SsoProvider =>
  (SSO_PROVIDERS as readonly string[]).includes(provider)

/** Only web addresses: an authorization URL is never a `javascript:` or `data:` one. */
function webAddress(url: string): string {
  const parsed = new URL(url, globalThis.location?.href)
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new Error(`Refusing to navigate to a ${parsed.protocol} address`)
  }
  return parsed.href
}

export interface LoginActorOptions {
  client?: ApiClient
  /** Leaves the app for another address; tests record it instead. */
  navigate?: (url: string) => void
}

const leave = (url: string) => globalThis.location.assign(url)

/** The real side effects of the login machine: the API, token storage, browser redirects. */
export function loginActors(options: LoginActorOptions = {}) {
  const client = options.client ?? api
  const navigate = options.navigate ?? leave
  return {
    discoverSso: fromPromise<SsoDiscoverResponse, DiscoverInput>(({ input }) =>
      client.post(paths.sso.discover, { email: input.email }, ssoDiscoverResponseSchema),
    ),
    login: fromPromise<LoginResponse, LoginInput>(({ input }) =>
      client.post(
        paths.auth.login,
        { email: input.email, password: input.password },
        loginResponseSchema,
      ),
    ),
    storeTokens: fromPromise<StoredLogin, TokenPair>(async ({ input }) => {
      const claims = decodeAccessToken(input.access)
      if (!claims) throw new Error('The access token cannot be read')
      storeTokens(input)
      return { claims, extension: readPendingExtension() }
    }),
    startGoogle: fromPromise<void>(async () => {
      const { authorization_url } = await client.get(
        paths.auth.googleStart,
        googleStartResponseSchema,
      )
      navigate(webAddress(authorization_url))
    }),
    loadProviders: fromPromise<SignInProviders>(async () => {
      const status = await client.get(paths.sso.providersStatus, ssoProvidersStatusSchema)
      return { google: status.google.enabled }
    }),
    startSso: fromPromise<void, SsoStartInput>(async ({ input }) => {
      if (!isSsoProvider(input.provider)) throw new Error(`Unknown SSO provider ${input.provider}`)
      const query = new URLSearchParams({ email: input.email })
      navigate(`${API_PREFIX}${paths.sso.login(input.provider)}?${query.toString()}`)
    }),
    /** Asks the hand-off call for the extension's own session and sends the browser back with it. */
    handOffToExtension: fromPromise<void, HandOffInput>(async ({ input }) => {
      if (!isExtensionRedirectUri(input.extension.redirectUri)) {
        throw new Error('The extension address is not an extension address')
      }
      // a session of the extension's own (a child of the one just stored): handing over the web
      // app's pair would make the first refresh rotation by either sign the other out
      const child = await client.post(
        paths.extension.handoff,
        { redirect_uri: input.extension.redirectUri, state: input.extension.state },
        extensionHandoffResponseSchema,
        { headers: { Authorization: `Bearer ${input.tokens.access}` } },
      )
      clearPendingExtension()
      navigate(
        extensionHandOffUrl(input.extension, {
          access: child.access_token,
          refresh: child.refresh_token,
        }),
      )
    }),
  }
}
