import * as z from 'zod/mini'
import { ROLES } from './roles.ts'

// The contract is written with zod/mini: the same zod, a fraction of the bytes in the browser.

/** The user object an access token may carry (spec section 3, 'Tokens'). */
export const tokenUserSchema = z.looseObject({
  id: z.optional(z.union([z.number(), z.string()])),
  email: z.nullish(z.string()),
  first_name: z.nullish(z.string()),
  last_name: z.nullish(z.string()),
  role: z.optional(z.string()),
})
export type TokenUser = z.infer<typeof tokenUserSchema>

/** Claims the client reads from the access token; the server verifies the signature. */
export const accessClaimsSchema = z.looseObject({
  exp: z.number(),
  user: z.optional(tokenUserSchema),
})
export type AccessClaims = z.infer<typeof accessClaimsSchema>

export const tokenRefreshRequestSchema = z.object({ refresh: z.string().check(z.minLength(1)) })
export const tokenRefreshResponseSchema = z.looseObject({
  access: z.string().check(z.minLength(1)),
  refresh: z.optional(z.string().check(z.minLength(1))),
})
export type TokenRefreshResponse = z.infer<typeof tokenRefreshResponseSchema>

export const profileSchema = z.looseObject({
  user: z.looseObject({
    first_name: z.nullish(z.string()),
    last_name: z.nullish(z.string()),
    email: z.nullish(z.string()),
  }),
  organization: z.unknown(),
})
export type Profile = z.infer<typeof profileSchema>

/** localStorage keys for the two tokens (spec section 3). */
export const ACCESS_TOKEN_KEY = 'access_token'
export const REFRESH_TOKEN_KEY = 'refresh_token'

// ---------------------------------------------------------------------------------------------
// Accounts and sessions (spec sections 3, 7). Requests are validated on the server with these
// schemas; the texts of section 5 live in auth-texts.ts.
// ---------------------------------------------------------------------------------------------

const nonEmpty = z.string().check(z.trim(), z.minLength(1))

export const loginRequestSchema = z.object({ email: nonEmpty, password: z.string() })
export const loginResponseSchema = z.object({
  access: z.string(),
  refresh: z.string(),
  requires_password_change: z.boolean(),
})
export type LoginResponse = z.infer<typeof loginResponseSchema>
/** A failed login may ask the client to send the user to Google (org requires it). */
export const loginFailureSchema = z.looseObject({
  error: z.optional(z.string()),
  msg: z.optional(z.string()),
  message: z.optional(z.string()),
  redirect_to_google: z.optional(z.boolean()),
})

export const registerRequestSchema = z.object({
  email: nonEmpty,
  password: z.string(),
  organization: nonEmpty,
  firstName: nonEmpty,
  lastName: nonEmpty,
  marketing_consent: z._default(z.boolean(), false),
})
export type RegisterRequest = z.input<typeof registerRequestSchema>
export const statusResponseSchema = z.looseObject({
  status: z.literal('success'),
  msg: z.optional(z.string()),
  detail: z.optional(z.string()),
})

export const tokenPairSchema = z.object({ access: z.string(), refresh: z.string() })
export type TokenPair = z.infer<typeof tokenPairSchema>

/** set-password/: success, and the session it starts (none where the organisation requires SSO). */
export const setPasswordResponseSchema = z.looseObject({
  status: z.literal('success'),
  access: z.optional(z.string()),
  refresh: z.optional(z.string()),
})

export const confirmEmailRequestSchema = z.object({ uuid: nonEmpty })
export const confirmEmailResponseSchema = z.object({
  access: z.string(),
  refresh: z.string(),
  user: z.looseObject({ email: z.string() }),
})
export type ConfirmEmailResponse = z.infer<typeof confirmEmailResponseSchema>

export const requestPasswordResetSchema = z.object({ email: nonEmpty })
export const linkTokenRequestSchema = z.object({ uid: nonEmpty, token: nonEmpty })
export const validateResetTokenResponseSchema = z.object({
  token_valid: z.boolean(),
  user_email: z.nullable(z.string()),
  /** True when the link was real but is past its hour: the page offers a new link. */
  expired: z.optional(z.boolean()),
})
export type ValidateResetTokenResponse = z.infer<typeof validateResetTokenResponseSchema>
export const setPasswordRequestSchema = z.object({
  uid: nonEmpty,
  token: nonEmpty,
  new_password: z.string(),
})
export const forcedChangeRequestSchema = z.object({ new_password: z.string() })
/** The forced change signs the session in afresh: old refresh tokens are revoked. */
export const forcedChangeResponseSchema = z.object({
  status: z.literal('success'),
  access: z.string(),
  refresh: z.string(),
})
export type ForcedChangeResponse = z.infer<typeof forcedChangeResponseSchema>
export const logoutRequestSchema = z.object({ refresh: z.optional(z.string()) })

export { ROLES, type Role } from './roles.ts'

/** A person of the organisation as the profile and the member calls show them. */
const memberSchema = z.object({
  id: z.number(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  role: z.enum(ROLES),
})

export const profileResponseSchema = z.object({
  user: memberSchema,
  organization: z.object({ id: z.number(), name: z.string() }),
})
export type ProfileResponse = z.infer<typeof profileResponseSchema>

export const licenseTierSchema = z.object({
  name: z.string(),
  max_users: z.number(),
  max_repository: z.number(),
  max_questionnaire: z.number(),
  max_answers: z.number(),
  is_evaluation: z.boolean(),
  multi_language: z.boolean(),
})
export const licenseSchema = z.object({
  tier: licenseTierSchema,
  is_active: z.boolean(),
  expiration_date: z.nullable(z.string()),
  created_at: z.string(),
})
export type License = z.infer<typeof licenseSchema>

export const ssoDiscoverRequestSchema = z.object({ email: nonEmpty })
export const ssoDiscoverResponseSchema = z.looseObject({
  sso_enabled: z.boolean(),
  result: z.optional(
    z.looseObject({ provider: z.optional(z.string()), organization: z.optional(z.string()) }),
  ),
})
export type SsoDiscoverResponse = z.infer<typeof ssoDiscoverResponseSchema>

/** `pending`: registered with an address at a verified domain, waiting for an admin's approval. */
export const USER_STATUSES = ['active', 'invited', 'pending', 'disabled', 'removed'] as const
export type UserStatus = (typeof USER_STATUSES)[number]

/** POST admin/users/invite/ (admins only): the invitee gets a set-password link valid 7 days. */
export const inviteUserRequestSchema = z.object({
  email: nonEmpty,
  first_name: z.optional(z.string()),
  last_name: z.optional(z.string()),
  role: z.optional(z.enum(ROLES)),
})
export type InviteUserRequest = z.input<typeof inviteUserRequestSchema>
export const inviteUserResponseSchema = z.object({
  status: z.literal('success'),
  user: z.extend(memberSchema, { status: z.enum(USER_STATUSES) }),
})
export type InviteUserResponse = z.infer<typeof inviteUserResponseSchema>

/**
 * Machine-readable `code` values of the auth errors, beside the generic ones of errors.ts, so the
 * client can branch without matching texts.
 */
export const AUTH_ERROR_CODES = {
  invalidCredentials: 'invalid_credentials',
  emailNotConfirmed: 'email_not_confirmed',
  passwordChangeRequired: 'password_change_required',
  invalidPassword: 'invalid_password',
  invalidToken: 'invalid_token',
  sessionExpired: 'session_expired',
  licenseLimit: 'license_limit',
  /** The address is confirmed; an admin has yet to approve the request to join. */
  pendingApproval: 'pending_approval',
  /** A confirmation link opened again, for an address already confirmed. */
  alreadyConfirmed: 'already_confirmed',
} as const

/** Lifetimes (issue 3): access 2 h (the extension hand-off says expires_in 7200). */
export const ACCESS_TOKEN_TTL_S = 2 * 60 * 60
export const REFRESH_TOKEN_TTL_S = 14 * 24 * 60 * 60
export const RESET_LINK_TTL_S = 60 * 60
export const CONFIRM_LINK_TTL_S = 24 * 60 * 60
export const INVITE_LINK_TTL_S = 7 * 24 * 60 * 60
export const MAGIC_LINK_TTL_S = 10 * 60

/** POST admin/sso/exchange/: the one-time code of /auth/callback for tokens. */
export const ssoExchangeRequestSchema = z.object({
  code: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
})
export const ssoExchangeResponseSchema = z.object({
  access: z.string(),
  refresh: z.string(),
  user_email: z.string(),
})
export type SsoExchangeResponse = z.infer<typeof ssoExchangeResponseSchema>

/** GET admin/auth/social/google/: where the browser goes to sign in with Google. */
export const googleStartResponseSchema = z.object({ authorization_url: z.string() })
export const googleCallbackResponseSchema = z.object({
  access: z.string(),
  refresh: z.string(),
  user: z.object({ email: z.string() }),
})
export type GoogleCallbackResponse = z.infer<typeof googleCallbackResponseSchema>
