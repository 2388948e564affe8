import {
  confirmEmailRequestSchema,
  confirmEmailResponseSchema,
  forcedChangeRequestSchema,
  forcedChangeResponseSchema,
  linkTokenRequestSchema,
  loginRequestSchema,
  loginResponseSchema,
  logoutRequestSchema,
  registerRequestSchema,
  requestPasswordResetSchema,
  setPasswordRequestSchema,
  setPasswordResponseSchema,
  statusResponseSchema,
  tokenPairSchema,
  tokenRefreshRequestSchema,
  tokenRefreshResponseSchema,
  validateResetTokenResponseSchema,
} from '../auth.ts'
import { paths } from '../paths.ts'
import { magicLinkRedeemSchema } from '../users.ts'
import { type OperationDocs, op } from './operation.ts'

const A = paths.auth

/** Accounts and sessions: registration, sign-in, tokens, passwords and one-time links. */
export const authOperations: OperationDocs = {
  [op('POST', A.login)]: {
    summary: 'Sign in with an email address and a password',
    description:
      'Answers a session’s access and refresh tokens. Refused (401) for wrong credentials, and for people whose organisation signs in with single sign-on.',
    access: 'public',
    body: loginRequestSchema,
    response: loginResponseSchema,
  },
  [op('POST', A.register)]: {
    summary: 'Register a new organisation and its first admin; a confirmation link is mailed',
    access: 'public',
    body: registerRequestSchema,
    response: statusResponseSchema,
  },
  [op('POST', A.confirmEmail)]: {
    summary: 'Confirm an email address with the mailed link and start a session',
    access: 'public',
    body: confirmEmailRequestSchema,
    response: confirmEmailResponseSchema,
  },
  [op('POST', A.tokenRefresh)]: {
    summary: 'Exchange a refresh token for a new access token (and a new refresh token)',
    access: 'public',
    body: tokenRefreshRequestSchema,
    response: tokenRefreshResponseSchema,
  },
  [op('POST', A.requestPasswordReset)]: {
    summary: 'Mail a password-reset link, if the address has an account',
    description: 'Answers alike whether or not the address has an account.',
    access: 'public',
    body: requestPasswordResetSchema,
    response: statusResponseSchema,
  },
  [op('POST', A.validatePasswordResetToken)]: {
    summary: 'Whether a password-reset link is still valid, and for which address',
    access: 'public',
    body: linkTokenRequestSchema,
    response: validateResetTokenResponseSchema,
  },
  [op('POST', A.confirmPasswordReset)]: {
    summary: 'Set a new password with a reset link; every session of the person ends',
    access: 'public',
    body: setPasswordRequestSchema,
    response: statusResponseSchema,
  },
  [op('POST', A.setPassword)]: {
    summary: 'Set the password of an invitation and start a session',
    description: 'No session is started where the organisation requires single sign-on.',
    access: 'public',
    body: setPasswordRequestSchema,
    response: setPasswordResponseSchema,
  },
  [op('POST', A.logout)]: {
    summary: 'Sign out: end the session named by the access token or the refresh token',
    description:
      'Either credential is enough (the body is optional with a bearer token); the session and the sessions issued from it end together.',
    access: 'public',
    body: logoutRequestSchema,
    response: statusResponseSchema,
  },
  [op('POST', A.magicLink)]: {
    summary: 'Redeem a one-time sign-in link an admin sent, and start a session',
    access: 'public',
    body: magicLinkRedeemSchema,
    response: loginResponseSchema,
  },
  [op('POST', A.changePasswordForced)]: {
    summary: 'Change a temporary password on first sign-in; the session starts afresh',
    access: 'signed-in',
    body: forcedChangeRequestSchema,
    response: forcedChangeResponseSchema,
  },
  [op('POST', A.tokenGet)]: {
    summary: 'A new pair of tokens for the signed-in person (a child session of theirs)',
    access: 'signed-in',
    response: tokenPairSchema,
  },
}
