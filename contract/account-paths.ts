/**
 * The calls of spec section 7 that signing in makes (auth, single sign-on, account, the
 * extension's hand-off): apart from the rest of `paths.ts` so that /login loads only these.
 * `paths` includes every one of them.
 */

export const API_PREFIX = '/api/v1'

export type Id = number | string
/** A path segment from an id or slug, encoded. */
export const seg = (id: Id) => encodeURIComponent(String(id))

export const SSO_PROVIDERS = ['google', 'microsoft', 'microsoft_oidc', 'microsoft_saml'] as const
export type SsoProvider = (typeof SSO_PROVIDERS)[number]

export const accountPaths = {
  /** Auth and account (under /admin). */
  auth: {
    login: '/admin/login/',
    register: '/admin/register/',
    confirmEmail: '/admin/confirm_email/',
    tokenRefresh: '/admin/token/refresh/',
    tokenGet: '/admin/token/get/',
    requestPasswordReset: '/admin/request_password_reset/',
    validatePasswordResetToken: '/admin/validate_password_reset_token/',
    confirmPasswordReset: '/admin/confirm_password_reset/',
    setPassword: '/admin/set-password/',
    changePasswordForced: '/admin/change-password-forced/',
    logout: '/logout/',
    googleStart: '/admin/auth/social/google/',
    googleCallback: '/admin/auth/social/google/callback/',
    /** Ours: redeem an admin's one-time sign-in link (POST only: LT9). */
    magicLink: '/admin/magic-link/',
  },

  /** Single sign-on (under /admin/sso). */
  sso: {
    discover: '/admin/sso/discover/',
    login: (provider: SsoProvider) => `/admin/sso/login/${seg(provider)}/`,
    callback: (provider: SsoProvider) => `/admin/sso/callback/${seg(provider)}/`,
    exchange: '/admin/sso/exchange/',
    settings: '/admin/sso/settings/',
    settingsUpdate: '/admin/sso/settings/update/',
    providersStatus: '/admin/sso/providers/status/',
    /** Ours: reads the provider's discovery document with the settings being edited. */
    test: '/admin/sso/test/',
  },

  /** Profile, license, billing. */
  account: {
    profile: '/admin/profile/',
    license: '/admin/get_license/',
    licenseTiers: '/admin/license_tiers/',
    fileStats: '/admin/file_stats/',
    updateOrganization: '/admin/update_organization/',
    /** Ours: the organisation's settings, its audit log and the log as CSV. */
    organization: '/admin/organization/',
    /** Ours: the organisation's logo (GET the image, POST an image body, DELETE it). */
    organizationLogo: '/admin/organization/logo/',
    domainDnsRecord: '/admin/organization/domains/dns-record/',
    domainVerifyDns: '/admin/organization/domains/verify-dns/',
    auditLog: '/admin/audit-log/',
    auditLogExport: '/admin/audit-log/export/',
    /** Ours: what the organisation uses of each limit of its license. */
    usage: '/admin/usage/',
  },
  /** Ours: the browser extension's hand-off (its allowlist, and tokens for a signed-in user). */
  extension: {
    config: '/admin/extension/config/',
    handoff: '/admin/extension/handoff/',
    /** Issue 42: a portal page's questions kept and drafted, and what the extension filled. */
    portalRead: '/extension/portal/read/',
    portalFilled: '/extension/portal/filled/',
  },
} as const

/**
 * Calls whose 401 means "bad credentials", not "expired session": the client never tries a
 * token refresh for them (spec section 8).
 */
export const NO_REFRESH_ON_401 = [
  accountPaths.auth.login,
  accountPaths.auth.register,
  accountPaths.auth.tokenRefresh,
  accountPaths.auth.googleStart,
  accountPaths.auth.googleCallback,
] as const
