/**
 * The exact texts of spec sections 2, 5 and 8 for sign-in, registration and passwords, in one
 * module so that the server, the views and the tests use the same characters.
 */
export const AUTH_TEXTS = {
  // section 5
  emailRequired: 'Please enter your email address',
  emailInvalid: 'Please enter a valid email address',
  domainTooShort: 'Invalid domain',
  domainFormat: 'Invalid domain format',
  passwordTooShort: 'Password must be at least 8 characters long',
  passwordsDoNotMatch: 'Passwords do not match',
  passwordHint: 'At least 8 characters, including letters and numbers',
  invalidOrMissingToken: 'Invalid or missing token',
  invalidConfirmationLink: 'Invalid confirmation link',

  // section 8: session
  sessionExpired: 'Your session has expired. Please log in again.',
  sessionWarning: 'Your session will expire in less than 5 minutes. Click to extend your session.',
  extendSession: 'Extend Session',
  sessionExtended: 'Session extended successfully!',
  sessionExtendFailed: 'Failed to extend session. Please log in again.',

  // section 8: login
  wrongCredentials: 'Wrong credentials',
  genericError: 'An error occurred',
  googleRedirectFailed:
    'Failed to redirect to Google authentication. Please use the "Continue with Google" button.',
  ssoStartFailed: 'Failed to initiate SSO login. Please try again.',
  googleStartFailed: 'Failed to start Google authentication. Please try again.',
  profileLoadFailed: 'Failed to fetch profile data',
  ssoDiscovery500: 'Unable to check SSO status. Continuing with password login.',
  ssoDiscoveryFailed: 'Failed to check SSO status',
  /** 'Continue to {organization}' when discovery names none. */
  ssoOrganizationFallback: 'your organization',

  // section 8: forgot and reset
  resetEmailFailed: 'Failed to send reset email',
  resetEmailNetwork: 'An error occurred while sending the reset email',
  resendEmailNotFound: 'Unable to resend - email not found',
  resendFailed: 'Failed to send new reset link',
  invalidOrExpiredResetLink: 'Invalid or expired reset link',
  resetFailed: 'Failed to reset password',
  resetNetwork: 'An error occurred while resetting your password',

  // section 8: set password, forced change, confirm email
  invalidOrExpiredToken: 'Invalid or expired token',
  setPasswordFailed: 'Failed to set password',
  changePasswordFailed: 'Failed to change password',
  confirmEmailFailed: 'Failed to confirm email. The link may be invalid or expired.',
  /** Issue 39: a confirmation link opened a second time. */
  emailAlreadyConfirmed: 'This email address is already confirmed. Sign in to continue.',

  // server-side messages the spec leaves to us (plain words)
  emailNotConfirmed: 'Please confirm your email address first. We sent you an activation link.',
  accountDisabled: 'This account is disabled. Please contact your administrator.',
  tooManyAttempts: 'Too many attempts. Please wait a few minutes and try again.',
  passwordTooCommon: 'This password is too common. Please choose another one.',
  passwordTooLong: 'Password must be at most 256 characters long',
  registrationSent: 'Please check your email for the activation link.',
  /** {organization} is replaced. */
  joinRequested:
    'Your email is confirmed. An admin of {organization} must approve your request to join before you can sign in; we will email you.',
  /** {organization} is replaced. */
  joinPending:
    'Your request to join {organization} is waiting for an admin’s approval. We will email you when it is approved.',
  resetSent:
    'If an account exists for this email, we sent instructions to reset your password. The link expires in 1 hour.',
  authenticationRequired: 'Authentication credentials were not provided or are invalid',
  passwordChangeRequired: 'You must change your password before continuing',
  fieldsRequired: 'Please fill in all required fields',
  passwordChangeNotRequired:
    'No password change is required. To change your password, use the reset link on the login page.',
  passwordUnchanged: 'The new password must be different from the current one',
  permissionDenied: 'You do not have permission to do this',
  emailInUse: 'A user with this email address already exists',
} as const

/** The answer to an invite when every seat of the license is taken (409). */
export const userLimitText = (maxUsers: number) =>
  `Your license allows ${maxUsers} user${maxUsers === 1 ? '' : 's'}. Remove a user or upgrade your plan to invite more.`

export const SSO_MESSAGES: Record<string, string> = {
  sso_not_enabled: 'SSO is not enabled for your organization. Please contact your administrator.',
  invalid_provider: 'Invalid SSO provider. Please try again.',
  session_expired: 'Your SSO session has expired. Please try again.',
  invalid_session: 'Invalid SSO session. Please start the login process again.',
  provider_error: 'SSO provider error. Please try again or contact support.',
  invalid_state: 'Invalid SSO state. Please try again.',
  missing_verifier: 'Missing SSO verification. Please try again.',
  system_error: 'System error occurred. Please try again or contact support.',
  unauthorized: 'Your account is not authorized. Please contact your administrator.',
}
export const SSO_MESSAGE_FALLBACK = 'An error occurred during SSO login. Please try again.'

/** Email as spec section 5 checks it at registration: a standard pattern, then the domain. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/
export function registrationEmailError(email: string): string | null {
  const value = email.trim()
  if (!value) return AUTH_TEXTS.emailRequired
  if (!EMAIL_PATTERN.test(value)) return AUTH_TEXTS.emailInvalid
  const domain = value.slice(value.lastIndexOf('@') + 1)
  if (domain.length < 3) return AUTH_TEXTS.domainTooShort
  if (!domain.includes('.') || domain.startsWith('.') || domain.endsWith('.')) {
    return AUTH_TEXTS.domainFormat
  }
  return null
}

/** The login email step's check (spec section 5). */
export function loginEmailError(email: string): string | null {
  if (!email.trim()) return AUTH_TEXTS.emailRequired
  if (!email.includes('@')) return AUTH_TEXTS.emailInvalid
  return null
}

/** The password rules of spec section 5 shared by reset, set-password and forced change. */
export function newPasswordError(password: string, confirm?: string): string | null {
  if (password.length < 8) return AUTH_TEXTS.passwordTooShort
  if (confirm !== undefined && password !== confirm) return AUTH_TEXTS.passwordsDoNotMatch
  return null
}
