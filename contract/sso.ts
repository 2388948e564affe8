import * as z from 'zod/mini'
import { SSO_PROVIDERS } from './account-paths.ts'
import { domainSchema } from './domains.ts'

/**
 * Single sign-on and Google sign-in (spec sections 3, 5, 7 and 8): each organisation's identity
 * provider, set by its admins, the one-time code exchange, and Google's callback.
 */

const optionalText = (max: number) =>
  z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(max))))

/** POST admin/sso/settings/update/: the provider and how people of the domains sign in. */
export const ssoSettingsUpdateSchema = z.object({
  enabled: z.boolean(),
  provider: z.enum(SSO_PROVIDERS),
  /** OIDC: the issuer whose discovery document is read (any standard provider). */
  issuer: optionalText(500),
  client_id: optionalText(500),
  /** Write-only: omitted or empty keeps the stored one. */
  client_secret: optionalText(2000),
  metadata_url: optionalText(500),
  metadata_xml: optionalText(200_000),
  domains: z._default(z.array(domainSchema).check(z.maxLength(20, 'At most 20 domains')), []),
  enforce_sso: z._default(z.boolean(), false),
  jit_provisioning: z._default(z.boolean(), false),
})
export type SsoSettingsUpdate = z.input<typeof ssoSettingsUpdateSchema>

/** GET admin/sso/settings/: the same fields, the secret never echoed (only whether one is set). */
export const ssoSettingsSchema = z.object({
  enabled: z.boolean(),
  provider: z.nullable(z.enum(SSO_PROVIDERS)),
  issuer: z.nullable(z.string()),
  client_id: z.nullable(z.string()),
  has_client_secret: z.boolean(),
  metadata_url: z.nullable(z.string()),
  metadata_xml: z.nullable(z.string()),
  domains: z.array(z.string()),
  enforce_sso: z.boolean(),
  jit_provisioning: z.boolean(),
  /** Where the identity provider sends people back (to register there). */
  redirect_uri: z.nullable(z.string()),
  /** SAML: Quire's entity id (the audience of the provider's assertions). */
  entity_id: z.string(),
})
export type SsoSettings = z.infer<typeof ssoSettingsSchema>

/** GET admin/sso/login/{provider}/?email=: the address typed on the login page, if any. */
export const ssoLoginQuerySchema = z.object({
  email: z.optional(z.string().check(z.trim(), z.maxLength(320))),
})

/** GET admin/auth/social/google/callback/: what Google sent back to the page. */
export const googleCallbackQuerySchema = z.object({
  code: z.string().check(z.trim(), z.minLength(1), z.maxLength(2000)),
  state: z.string().check(z.trim(), z.minLength(1), z.maxLength(500)),
  iss: z.optional(z.string().check(z.trim(), z.maxLength(500))),
})

/** GET admin/sso/providers/status/: which sign-in methods this deployment offers. */
export const ssoProvidersStatusSchema = z.object({
  google: z.object({ enabled: z.boolean() }),
  providers: z.array(z.enum(SSO_PROVIDERS)),
})
export type SsoProvidersStatus = z.infer<typeof ssoProvidersStatusSchema>

export {
  type GoogleCallbackResponse,
  googleCallbackResponseSchema,
  googleStartResponseSchema,
  type SsoExchangeResponse,
  ssoExchangeRequestSchema,
  ssoExchangeResponseSchema,
} from './auth.ts'

export const SSO_TEXTS = {
  settingsSaved: 'Single sign-on settings saved',
  issuerRequired: 'Enter the issuer of your identity provider',
  clientIdRequired: 'Enter the client id your identity provider gave Quire',
  clientSecretRequired: 'Enter the client secret your identity provider gave Quire',
  metadataRequired:
    'Enter the metadata address or paste the metadata XML of your identity provider',
  metadataInvalid: 'The metadata cannot be used:',
  metadataUnreachable: 'The metadata could not be read at that address',
  /** {domain} is replaced. */
  domainNotVerified:
    '{domain} is not a verified domain of this organisation. Verify it in Organisation first.',
  domainRequired: 'Enter at least one email domain whose people sign in with single sign-on',
  enforceNeedsEnabled: 'Single sign-on must be on to require it',
  discoveryFailed: 'The identity provider could not be reached at that issuer',
  googleDisabled: 'Google sign-in is not configured on this server',
  codeInvalid: 'The sign-in code is invalid or expired. Please sign in again.',
  notAllowed: 'Your account is not authorized. Please contact your administrator.',
  sessionExpired: 'Your authentication session expired. Please try logging in again.',
  /** AS12: the same words for password login, reset and magic links. */
  ssoRequired: 'Your organisation signs in with single sign-on. Use Continue on the login page.',
  testOk: 'The identity provider answered: its sign-in page is ready.',
  testNeedsClient: 'Add the client id and secret it gave Quire to save.',
  /** Changing where the stored secret would be sent needs it typed again. */
  clientSecretReenter:
    'Enter the client secret again: it is sent only to the issuer it was entered for',
  tooManyStarts: 'Too many sign-in attempts from this address. Please wait a minute and try again.',
} as const

/** /auth/callback (spec sections 2, 5 and 8). */
export const SSO_CALLBACK_TEXTS = {
  processing: 'Completing single sign-on...',
  success: 'Signed in. Opening Quire...',
  errorTitle: 'Sign-in Failed',
  noCode: 'No authorization code received',
  unknown: 'Unknown error occurred',
  tryAgain: 'Try Again',
} as const

/** /auth/social/google/callback (spec sections 2, 5 and 8). */
export const GOOGLE_CALLBACK_TEXTS = {
  completing: 'Completing sign in...',
  errorTitle: 'Authentication Error',
  providerError: 'Authentication was cancelled or failed. Please try again.',
  missingParameters: 'Invalid authentication response. Please try again.',
  forbidden: 'Authentication failed',
  badRequest: 'Invalid OAuth request',
  expired: 'Your authentication session expired. Please try logging in again.',
  other: 'Failed to complete Google login. Please try again.',
  redirecting: 'Taking you back to the login page...',
} as const

/** The codes /login?message= carries (spec section 8), as the server sends them. */
export const SSO_ERROR_CODES = [
  'sso_not_enabled',
  'invalid_provider',
  'session_expired',
  'invalid_session',
  'provider_error',
  'invalid_state',
  'missing_verifier',
  'system_error',
  'unauthorized',
] as const
export type SsoErrorCode = (typeof SSO_ERROR_CODES)[number]
